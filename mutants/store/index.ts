// The store mutants (docs/ARCHITECTURE.md "Mutants"), one file each beside this one, in the order
// of their declarations (declarations.ts), which is the order of the mutation report.
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
import type { StoreMutant } from '../entry.ts';

/** In the order of declarations.ts: each wraps the correct store and changes one rule. */
export const STORE_MUTANTS: ReadonlyArray<StoreMutant> = [
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
  throw new Error('mutants/store/index.ts lists every store mutant of declarations.ts, in its order');
}
