// The mutant catalogue (docs/ARCHITECTURE.md "Mutants"): one bug each, drawn from seed 000 and
// from the real races of seeds 002 and 003. Each names the rule it breaks (model/SEMANTICS.md or a
// checker) and the invariants that must catch it: together they audit every history checker. The order is the order of the mutation report.
import { CLIENT_PROTOCOL_MUTANTS } from '../../model/policy-mutants/client-protocol.ts';
import { COORDINATION_MUTANTS } from '../../model/policy-mutants/coordination.ts';
import { RAFT_MUTANTS } from '../../model/policy-mutants/raft.ts';
import { TRUST_MUTANTS } from '../../model/policy-mutants/trust.ts';
import { FEDERATION_MUTANTS } from '../../model/policy-mutants/federation.ts';
import { acquireAllFirstEight } from './acquire-all-first-eight.ts';
import { acquireAllKeepsPartial } from './acquire-all-keeps-partial.ts';
import { acquireBypassesQueue } from './acquire-bypasses-queue.ts';
import { advisoryLockOnly } from './advisory-lock-only.ts';
import { anyWaiterAcquires } from './any-waiter-acquires.ts';
import { authorityEpochPerScope } from './authority-epoch-per-scope.ts';
import { blankReasonAsciiOnly } from './blank-reason-ascii-only.ts';
import { forceReleaseIgnoresPrivilege } from './force-release-ignores-privilege.ts';
import { busyFromLeaseCache } from './busy-from-lease-cache.ts';
import { completeOverwritesFinal } from './complete-overwrites-final.ts';
import { expiredUnitsStillCounted } from './expired-units-still-counted.ts';
import { capacityChecksFullOnly } from './capacity-checks-full-only.ts';
import { clientClockExpiry } from './client-clock-expiry.ts';
import { completeIgnoresDigest } from './complete-ignores-digest.ts';
import { dispatchOutsideLeaseTransaction } from './dispatch-outside-lease-transaction.ts';
import { listOmitsLeased } from './list-omits-leased.ts';
import { restoreDropsJobs } from './restore-drops-jobs.ts';
import { STORE_MUTANT_NAMES } from './declarations.ts';
import { digestIgnored } from './digest-ignored.ts';
import { epochResetAfterRestore } from './epoch-reset-after-restore.ts';
import { expiredReservationConsumed } from './expired-reservation-consumed.ts';
import { fenceByAggregateHighWater } from './fence-by-aggregate-high-water.ts';
import { fifoIgnoresPriority } from './fifo-ignores-priority.ts';
import { finishAfterReturn } from './finish-after-return.ts';
import { forceReleaseLowersToken } from './force-release-lowers-token.ts';
import { forceReleaseNoBurn } from './force-release-no-burn.ts';
import { handoffKeepsToken } from './handoff-keeps-token.ts';
import { idempotencyKeyUnscoped } from './idempotency-key-unscoped.ts';
import { keyOnlyForceRelease } from './key-only-force-release.ts';
import { leaseWithoutSchedulerEpoch } from './lease-without-scheduler-epoch.ts';
import { mutateIgnoresExpiry } from './mutate-ignores-expiry.ts';
import { mutateIgnoresVersion } from './mutate-ignores-version.ts';
import { mutateWithoutRoleGuard } from './mutate-without-role-guard.ts';
import { noFencingCheck } from './no-fencing-check.ts';
import { priorityWithoutAging } from './priority-without-aging.ts';
import { recoveryKeepsLeases } from './recovery-keeps-leases.ts';
import { recoverySkipsBlock } from './recovery-skips-block.ts';
import { reentrantAcquire } from './reentrant-acquire.ts';
import { tombstonesPruned } from './tombstones-pruned.ts';
import { ttlMaxExcluded } from './ttl-max-excluded.ts';
import { releaseIgnoresToken } from './release-ignores-token.ts';
import { renewRevivesExpired } from './renew-revives-expired.ts';
import { renewalWithoutEpochCheck } from './renewal-without-epoch-check.ts';
import { reservationsNotCounted } from './reservations-not-counted.ts';
import { semaphoreOffByOne } from './semaphore-off-by-one.ts';
import { sessionReentrantAcquire } from './session-reentrant-acquire.ts';
import { unknownBeginsNew } from './unknown-begins-new.ts';
import { unloggedLeases } from './unlogged-leases.ts';
import type { Mutant } from './mutant.ts';

export { mutantStoreFactory, type Mutant } from './mutant.ts';

/** Store-level, in the order of declarations.ts: each wraps the correct store and changes one rule. */
const STORE_MUTANTS: ReadonlyArray<Mutant> = [
  noFencingCheck,
  clientClockExpiry,
  renewalWithoutEpochCheck,
  advisoryLockOnly,
  keyOnlyForceRelease,
  epochResetAfterRestore,
  semaphoreOffByOne,
  capacityChecksFullOnly,
  leaseWithoutSchedulerEpoch,
  reentrantAcquire,
  acquireBypassesQueue,
  anyWaiterAcquires,
  fifoIgnoresPriority,
  priorityWithoutAging,
  releaseIgnoresToken,
  handoffKeepsToken,
  forceReleaseLowersToken,
  forceReleaseNoBurn,
  mutateIgnoresExpiry,
  mutateIgnoresVersion,
  renewRevivesExpired,
  fenceByAggregateHighWater,
  mutateWithoutRoleGuard,
  recoveryKeepsLeases,
  recoverySkipsBlock,
  reservationsNotCounted,
  expiredReservationConsumed,
  digestIgnored,
  idempotencyKeyUnscoped,
  unknownBeginsNew,
  acquireAllKeepsPartial,
  completeIgnoresDigest,
  listOmitsLeased,
  dispatchOutsideLeaseTransaction,
  restoreDropsJobs,
  authorityEpochPerScope,
  tombstonesPruned,
  sessionReentrantAcquire,
  unloggedLeases,
  finishAfterReturn,
  ttlMaxExcluded,
  blankReasonAsciiOnly,
  acquireAllFirstEight,
  forceReleaseIgnoresPrivilege,
  completeOverwritesFinal,
  expiredUnitsStillCounted,
  busyFromLeaseCache,
];

if (STORE_MUTANTS.map((mutant) => mutant.name).join() !== STORE_MUTANT_NAMES.join()) {
  throw new Error('adapters/mutants/index.ts lists every store mutant of declarations.ts, in its order');
}

export const MUTANTS: ReadonlyArray<Mutant> = Object.freeze([
  ...STORE_MUTANTS,
  // Controller-level: each flips one policy flag, declared by theme in model/policy-mutants/.
  ...CLIENT_PROTOCOL_MUTANTS,
  ...COORDINATION_MUTANTS,
  ...RAFT_MUTANTS,
  ...TRUST_MUTANTS,
  ...FEDERATION_MUTANTS,
]);

/** The mutant named `name` (with or without the `mutant:` adapter prefix), or undefined. */
export function findMutant(name: string): Mutant | undefined {
  const bare = name.startsWith('mutant:') ? name.slice('mutant:'.length) : name;
  return MUTANTS.find((mutant) => mutant.name === bare);
}
