// A federated site is cut off the WAN for a while (seed 000 §163, §267): its controllers cannot
// reach the other sites nor the federation's authority service, while they keep reaching the
// database. The site goes on with the view of the authority it had: a site that holds a domain's
// authority keeps taking local leases in it (air-gap: local concurrency operates normally, §267),
// and one whose authority moved meanwhile does not know it until the heal (§168: the store fences
// it). Its end is a `site-heal`, at which the site learns who holds every domain. Runs with
// `federation` only. Knobs: `federation.faults.siteCutPct`, `siteCutMsMax`.

import { z } from 'zod';
import { defineFault, federationKnob, ms, pct, simulatedOnly } from './package.ts';

const schema = z.object({ f: z.literal('site-cut'), at: ms, site: z.number().int().min(1).max(8), durationMs: ms }).strict();

const wan = simulatedOnly('sites and the federation are simulated; the links to the database are unaffected');

export const siteCut = defineFault({
  schema,
  knobs: {
    siteCutPct: federationKnob(pct, 'Chance (percent) per tick that a site is cut off from the other sites and the federation for up to `siteCutMsMax` (000 §267).'),
    siteCutMsMax: federationKnob(ms, 'Longest random site cut, in ms.'),
  },
  randomWhen: ['siteCutPct'],
  draw: {
    on: 'federation',
    at(tick, mine, stream) {
      if (!stream.chance(mine.siteCutPct)) return null;
      return { f: 'site-cut' as const, at: tick.at, site: stream.int(1, tick.federation!.sites), durationMs: stream.int(1, Math.max(1, mine.siteCutMsMax)) };
    },
  },
  async apply(world, fault) {
    // A site already cut stays cut until its first cut ends: the overlap adds nothing.
    const nodes = world.federation?.cutSite(fault.site) ?? null;
    if (nodes === null) return;
    await world.record('site-cut', { site: fault.site, nodes: [...nodes], durationMs: fault.durationMs });
    world.endAt(world.now + Math.max(1, fault.durationMs));
  },
  async end(world, fault) {
    const learned = world.federation?.healSite(fault.site) ?? null;
    if (learned === null) return;
    await world.record('site-heal', { site: fault.site, learned: [...learned] });
  },
  records: {
    'site-cut': { real: wan, colour: '#16a085', endedBy: 'site-heal' },
    'site-heal': { real: wan },
  },
});
