// The authority of a federation domain fails over to another site (seed 000 §168, §296): the
// federation names the next site it reaches (or the scripted `to`) under the domain's authority
// epoch plus one, writes that epoch to the store from the database host before the new site acts
// on it, and every site it reaches learns the change. A site cut off at that moment (typically the
// old authority site) keeps running under the epoch it knew until its heal; the store fences its
// leases and writes from the failover on. Recorded as `site-failover`
// `{ domain, role, from, to, epoch }`, followed by the AdvanceRoleEpoch of the procedure. Runs
// with `federation` only. Knob: `federation.faults.siteFailoverPct`.

import { z } from 'zod';
import { defineFault, federationKnob, ms, pct, simulatedOnly } from './package.ts';

const schema = z
  .object({
    f: z.literal('site-failover'),
    at: ms,
    /** The domain, named after its tenant: `t1`, `t2`, ... */
    domain: z.string().regex(/^t[1-9][0-9]?$/, "must be a tenant domain such as 't1'"),
    /** The site that takes the authority (absent: the next site after the current one that the federation reaches). */
    to: z.number().int().min(1).max(8).optional(),
  })
  .strict();

export const siteFailover = defineFault({
  schema,
  knobs: { siteFailoverPct: federationKnob(pct, 'Chance (percent) per tick that the authority of a domain fails over to another site (000 §168).') },
  randomWhen: ['siteFailoverPct'],
  draw: {
    on: 'federation',
    at(tick, mine, stream) {
      if (!stream.chance(mine.siteFailoverPct)) return null;
      return { f: 'site-failover' as const, at: tick.at, domain: stream.pick(tick.federation!.domains) };
    },
  },
  async apply(world, fault) {
    const federation = world.federation;
    if (federation === null) return;
    const moved = federation.failover(fault.domain, fault.to);
    await world.record('site-failover', moved);
    if (typeof moved['role'] === 'string' && typeof moved['epoch'] === 'number') await federation.establish(moved['role'], moved['epoch']);
  },
  records: {
    'site-failover': { real: simulatedOnly('federation authority is simulated; its epoch reaches the database through the store port'), colour: '#8e44ad' },
  },
});
