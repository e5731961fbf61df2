// Force release by an operator (seed 000 §200–§206, §290; seed 002 PR #53). The operator cannot
// see whether a holder is dead: it judges from what the store shows it. It watches the scope's
// lease; a live holder renews every third of its TTL, so a lease whose expiry did not move over two
// renewal intervals belongs to a stalled holder — crashed, paused or cut off, and possibly still
// alive. The operator then reconciles that holder's unobserved effect (§202) and forces exactly the
// lease it judged: its token and the expiry it saw, in one store command, so a holder that renews
// in between keeps its lease (seed 002 022d1f8, ebe1ab8). A stalled holder that comes back is
// stopped by fencing, not by the operator's belief.

import type { Fiber, Journal, Sim } from './engine.ts';
import { world } from './controller-world.ts';
import type { OpSpec } from './plan.ts';
import { MAX_CLOCK_DRIFT_PPM } from '../scenarios/schema.ts';
import { renewalOf } from './renewal-kind.ts';

interface Observed {
  readonly holder: string;
  readonly token: number;
  readonly expiresAt: number;
}

/**
 * Two renewal intervals on a clock that may run up to 10% fast (MAX_CLOCK_DRIFT_PPM), so that at
 * least ⅔ of a TTL passes in true time; the too-short window of the broken policy is half of one
 * interval.
 */
export function stallWindowMs(ttlMs: number, overRenewals: boolean): number {
  return overRenewals ? Math.ceil((ttlMs * 2 * (1 + MAX_CLOCK_DRIFT_PPM / 1_000_000)) / 3) : Math.ceil(ttlMs / 6);
}

/** How long one force-release operation watches a scope, and how often it looks. */
const WATCH_TTLS = 4;
const POLLS_PER_TTL = 20;

export async function forceReleaseJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  const policy = sim.policy;
  const ttlMs = fleetTtlMs(sim);
  // Where renewals only confirm (capabilities.renewal), a live holder's expiry never moves either:
  // the store shows no stall to judge, and the operator waits the lease out.
  const window = renewalOf(sim.store) === 'confirms' ? Number.POSITIVE_INFINITY : stallWindowMs(ttlMs, policy.judgeStallOverRenewals);
  const pollMs = Math.max(1, Math.floor(ttlMs / POLLS_PER_TTL));
  let polls = WATCH_TTLS * POLLS_PER_TTL;
  // The lease being watched, and when it first saw that expiry, on its monotonic clock (so a step
  // of its wall clock does not shorten the judgement).
  let watched: Observed | null = null;
  let since = 0;
  while (polls-- > 0) {
    const askedAt = fiber.node.clock.monotonic(sim.now);
    const seen = await observe(sim, fiber, op);
    if (seen === 'free') return;
    if (seen === null) {
      watched = null;
    } else if (watched === null || !sameLease(watched, seen, policy.forceReleaseWithObservedEpoch)) {
      // A renewal (the expiry moved) or a new holder: the judgement starts over. Key-only thinking
      // watches the scope, not the lease: a new holder's lease carries on the stall it was timing.
      watched = seen;
      since = fiber.node.clock.monotonic(sim.now);
    } else {
      watched = seen;
      if (askedAt - since >= window) return forceStalled(sim, fiber, op, watched);
    }
    await sim.sleepLocal(fiber, pollMs);
  }
}

/**
 * The longest lease TTL the fleet is configured with: the operator's judgement needs a bound on
 * every holder's renewal interval, not its own lease's (a shrunk plan may give ops different TTLs).
 */
function fleetTtlMs(sim: Sim): number {
  let longest = 0;
  for (const step of sim.plan.steps) if (step.kind === 'op') longest = Math.max(longest, step.op.ttlMs);
  return longest;
}

function sameLease(watched: Observed, seen: Observed, boundToToken: boolean): boolean {
  if (seen.token !== watched.token) return !boundToToken;
  return seen.expiresAt === watched.expiresAt;
}

async function forceStalled(sim: Sim, fiber: Fiber, op: OpSpec, target: Observed): Promise<void> {
  const policy = sim.policy;
  // Reconcile the stalled holder's effect before its lease goes (§202 "only after reconciliation").
  const pending = world(sim).unobserved.get(target.holder);
  if (pending !== undefined) await sim.inspect(fiber, pending.intentId);
  await sim.call(fiber, {
    kind: 'ForceRelease',
    scope: op.scope,
    expectedToken: target.token,
    ...(policy.forceBindsObservedExpiry ? { expectedExpiresAt: target.expiresAt } : {}),
    actor: fiber.node.proc,
    reason: `holder ${target.holder} stalled: lease expiry unchanged at ${target.expiresAt}; effects reconciled`,
    privileged: true,
  });
}

/** The scope's lease as the store shows it ('free' after taking it and giving it back; null without an answer). */
async function observe(sim: Sim, fiber: Fiber, op: OpSpec): Promise<Observed | 'free' | null> {
  const actor = fiber.node.proc;
  const r = await sim.call(fiber, { kind: 'Acquire', scope: op.scope, holder: actor, ttlMs: op.ttlMs });
  if (r?.kind === 'Acquired') {
    await sim.call(fiber, { kind: 'Release', scope: op.scope, holder: actor, token: r.lease.token });
    return 'free';
  }
  return r?.kind === 'Busy' ? { holder: r.holder, token: r.token, expiresAt: r.expiresAt } : null;
}
