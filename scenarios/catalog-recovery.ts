// The built-in scenarios of database crash, failover and restore (seed 000 §271–§276, §286, §297),
// as plain data like catalog.ts, which lists them in its order.

import { DEPLOYS, NET, SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

/** A failover to a replica that lags 1.5 s, a third of the way through. */
const DB_FAILOVER: ScenarioInput & { readonly name: 'db-failover' } = {
  name: 'db-failover',
  title: 'Failover to a lagging replica: the recovery epoch fences every earlier token',
  sources: ['000 §272–276', '000 §297', '000 §271'],
  workload: { controllers: 6, scopes: 2, mix: { 'env-deploy': 3, 'infra-apply': 1 }, horizonMs: 10_000, leaseTtlMs: 2_000, workMsMin: 50, workMsMax: 250 },
  faults: { profile: { ...NET }, scripted: [{ f: 'db-failover', at: 4_000, lagMs: 1_500 }] },
  invariants: [...SAFETY, 'restore-invalidates', 'restore-forgets'],
  expect: 'pass',
  operations: 60,
};

/**
 * A restore from a 3 s old backup halfway through. Jobs outlast the backup's age, so a lease in the
 * restored image can belong to a holder still at work; provider timeouts leave effects in flight
 * across the restore.
 */
const RESTORE: ScenarioInput & { readonly name: 'restore' } = {
  name: 'restore',
  title: 'Restore from an older backup: pre-restore leases are invalid until reconciled',
  sources: ['000 §272–276', '000 §297'],
  workload: { controllers: 6, scopes: 2, mix: { 'env-deploy': 3, 'alias-publish': 1 }, horizonMs: 10_000, leaseTtlMs: 4_000, workMsMin: 1_000, workMsMax: 4_000 },
  faults: { profile: { ...NET, providerTimeoutPct: 10, providerTimeoutAppliedPct: 50 }, scripted: [{ f: 'db-restore', at: 5_000, snapshotAgeMs: 3_000 }] },
  invariants: [...SAFETY, 'restore-invalidates', 'restore-forgets'],
  expect: 'pass',
  operations: 60,
};

/** The `-unmitigated` twin of a scenario: the same run without the recovery epoch, which must show the violation. */
function unmitigated<N extends string>(twin: ScenarioInput & { readonly name: N }, title: string): ScenarioInput & { readonly name: `${N}-unmitigated` } {
  return { ...twin, name: `${twin.name}-unmitigated` as const, title, mitigations: { recoveryEpoch: false }, expect: 'violation' };
}

export const RECOVERY_SCENARIOS = [
  leaseScenario({
    name: 'db-crash',
    title: 'Database crash: session loss does not break the durable ownership model',
    sources: ['000 §286', '000 §74'],
    workload: { controllers: 4, scopes: 2, mix: DEPLOYS, horizonMs: 12_000, leaseTtlMs: 1_500 },
    profile: { nemesisIntervalMs: 1_000, dbCrashProbabilityPct: 20, dbDownMs: 700 },
    invariants: [...SAFETY, 'no-blind-retry'],
  }),
  DB_FAILOVER,
  unmitigated(DB_FAILOVER, 'Failover without a recovery epoch: fencing regresses'),
  RESTORE,
  unmitigated(RESTORE, 'Restore without a recovery epoch: a pre-restore lease is honoured'),
] satisfies ReadonlyArray<ScenarioInput>;
