// The built-in scenario of contention at the database (seed 000 §72, §77–§78, §43–§47, §93–§96),
// as plain data like catalog.ts, which lists it in its order. It is written for controlled
// interleaving (`--interleave`): bursts of controllers reach the store with calls on one scope,
// one idempotency key and one capacity at the same moments, so that their transactions run at
// once. Run serially it is an ordinary, busy lease workload.

import { SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

export const CONCURRENCY_SCENARIOS = [
  leaseScenario({
    name: 'sql-contention',
    title: 'Bursts of controllers on one scope, one key and one slot at once: one owner, unique tokens, one first request per key, capacity kept',
    sources: ['000 §72', '000 §77–78', '000 §24', '000 §43–47', '000 §93–96'],
    // Short leases and short work, no waiting (every acquire tries once, so contenders meet on a
    // free scope), and three operations in ten repeating the one before at the same instant.
    workload: { controllers: 8, scopes: 2, mix: { 'env-deploy': 2, 'api-request': 1, 'api-conflict': 1, 'signing-slot': 1 }, horizonMs: 3_000, leaseTtlMs: 300, workMsMin: 20, workMsMax: 200, waitPct: 0, burstPct: 30 },
    invariants: [...SAFETY, 'capacity', 'capacity-refusal', 'digest-conflict', 'idempotency-scope', 'idempotency-final', 'unknown-not-new'],
    operations: 120,
  }),
  leaseScenario({
    name: 'sql-renewal-race',
    title: 'Leases barely longer than the store\'s round trips, renewed by heartbeats while contenders wait: a renewal racing its own lease\'s expiry is refused, never granted while another holder owns the scope',
    sources: ['000 §31–33', '000 §78', '000 §280', '000 §282'],
    // Leases of 50 ms renewed every third of that, so a renewal delayed by a held message or a
    // pause reaches the store within the interleaving window (25 ms) before its lease expires,
    // when the waiters told the scope is free reach it too; store time passes inside that window.
    workload: { controllers: 8, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 4_000, leaseTtlMs: 50, workMsMin: 10, workMsMax: 60, waitPct: 100, burstPct: 20 },
    profile: { holdProbabilityPct: 60, holdMsMax: 40, nemesisIntervalMs: 50, pauseProbabilityPct: 50, pauseMsMax: 50 },
    operations: 100,
  }),
  leaseScenario({
    name: 'sql-release-race',
    title: 'Holders that count on the TTL alone release as their lease expires, while the next waiter, woken by the expiry, asks for the scope: a release never removes the next holder\'s lease',
    sources: ['000 §78', '000 §280', '000 §25–30'],
    // No renewals: a lease of 110 ms covers a holder's work after its last confirmation, so its
    // release reaches the store about when the lease expires, and the waiters the expiry wakes
    // reach it in the same interleaving window (25 ms), where store time passes the expiry.
    workload: { controllers: 3, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 3_000, leaseTtlMs: 110, workMsMin: 20, workMsMax: 70, waitPct: 100, burstPct: 20, renewals: false },
    profile: { networkDelayMsMax: 3 },
    operations: 120,
  }),
] satisfies ReadonlyArray<ScenarioInput>;
