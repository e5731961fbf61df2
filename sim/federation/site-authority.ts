// The controller's side of federation site authority (seed 000 §163–§169, §296): a controller of
// a federated site takes a domain's lease and writes its aggregates only under its site's
// authority guard, `{ role: authority:<domain>, epoch }`, as its site knows it; a site that does
// not hold the authority takes no lease in that domain (§167), and local locks never stand in for
// the authority (§169). A Fenced answer tells the site that a newer authority epoch exists: it
// stops acting in that domain until the federation tells it who holds it. The one flag
// `fencedSiteStops` of the controller policy is what a broken site gets wrong: it falls back to
// site-local locking when fenced (mutants/policy/federation.ts).

import type { RoleGuard } from '../../model/commands.ts';
import { authorityGuard } from '../../model/federation-authority.ts';
import type { FencedOutcome } from '../../model/outcomes.ts';
import type { Fiber, Sim } from '../engine.ts';
import type { OpSpec } from '../plan.ts';

/** What a command of an unfederated run carries: nothing, so its commands stay as they were. */
const UNFEDERATED: { readonly guard?: RoleGuard } = Object.freeze({});

/**
 * What `op`'s lease and writes carry on `fiber`'s node: nothing in a run without federation, its
 * site's authority guard for the op's domain, or null when its site does not hold that authority
 * as far as it knows (the operation is refused, and recorded so).
 */
export function authorityOf(sim: Sim, fiber: Fiber, op: OpSpec): { readonly guard?: RoleGuard } | null {
  const federation = sim.federation;
  if (federation === null) return UNFEDERATED;
  const site = federation.siteOf(fiber.node.name);
  const view = federation.viewOf(site, op.tenant);
  if (view.site === site) return { guard: authorityGuard(op.tenant, view.epoch) };
  sim.history.op(sim.now, fiber.process, 'invoke', 'site-authority', { domain: op.tenant, site, scope: op.scope });
  sim.history.op(sim.now, fiber.process, 'fail', 'site-authority', { reason: view.site === null ? 'fenced' : `held by site ${view.site}`, epoch: view.epoch });
  return null;
}

/**
 * The store fenced a guarded call of `op`: a newer authority epoch of its domain exists. The site
 * learns it and stops acting in the domain, and the caller gets the Fenced answer; a broken site
 * resends the call without the guard, as if its local lock were enough (`fencedSiteStops` off),
 * and goes on with that answer.
 */
export async function afterFenced<C extends { readonly guard?: RoleGuard }, R>(sim: Sim, fiber: Fiber, op: OpSpec, command: C, fenced: R & FencedOutcome, call: (command: C) => Promise<R | null>): Promise<R | null> {
  const federation = sim.federation;
  if (federation === null || command.guard === undefined) return fenced;
  if (!sim.policy.fencedSiteStops) {
    const { guard: _dropped, ...unguarded } = command;
    return call(unguarded as C);
  }
  federation.fenced(federation.siteOf(fiber.node.name), op.tenant, fenced.currentEpoch);
  return fenced;
}
