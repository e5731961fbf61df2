// Requests that reach the store again or late (seed 000 §283, §37–§42, §86–§92, §110–§114,
// §198–§206; seed 001 §76–§77, §84–§85, §92–§95), as plain data like catalog.ts, which lists them
// in its order. A correct controller meets these answers only when a request is delivered twice
// (sim/redelivery.ts), or when a holder acts after a pause: a submission that finds its job, a
// transition that finds its reservation already moved, missing or expired, a waiter already
// queued or already gone, a handoff of a lease that is no longer the holder's, a leader deposed
// between its election and its first write, a scope nobody blocked. A misbehaving client and an
// unprivileged operator script send what a correct controller never does (sim/misbehaving-client.ts),
// so that the store's refusals are reached too. Together they reach every Command:Outcome pair no
// other must-pass scenario does (sim/unreachable-outcomes.ts).

import { SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

export const RETRY_SCENARIOS = [
  leaseScenario({
    name: 'retried-and-late-requests',
    title: 'Requests delivered twice, holders acting after a pause, and invalid requests: the store answers each as the rule book says and lets none of them through',
    // Leases of 800 ms that nobody renews, and pauses of up to 2 s: attempts are superseded,
    // reservations expire under their executor, holders hand off leases they no longer hold.
    // Wait timeouts of 1.5 s over one queue of each tenant's two scopes make waiters give up.
    sources: ['000 §283', '000 §37–42', '000 §86–92', '000 §110–114', '000 §198–206', '000 §290', '001 §76–77', '001 §84–85', '001 §92–95'],
    workload: {
      controllers: 5,
      scopes: 2,
      mix: { 'job-attempt': 3, 'reservation-saga': 4, 'verified-handoff': 3, 'role-takeover': 2, 'misbehaving-client': 1 },
      horizonMs: 12_000,
      leaseTtlMs: 800,
      workMsMin: 100,
      workMsMax: 700,
      waitTimeoutMs: 1_500,
      unitsMax: 2,
    },
    profile: { networkDelayMsMax: 30, nemesisIntervalMs: 300, pauseProbabilityPct: 25, pauseMsMax: 2_000 },
    invariants: [...SAFETY, 'capacity', 'capacity-refusal', 'force-release-audited', 'force-release-judged'],
    operations: 60,
  }),
] satisfies ReadonlyArray<ScenarioInput>;
