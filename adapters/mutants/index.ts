// The mutant catalogue (docs/ARCHITECTURE.md "Mutants"): one bug each, drawn from seed 000 and
// from the real races of seeds 002 and 003. Each names the rule it breaks (model/SEMANTICS.md or a
// checker) and the invariants that must catch it: together they audit every history checker. The order is the order of the mutation report.

import { advisoryLockOnly } from './advisory-lock-only.ts';
import { blindRetryAfterTimeout } from '../../model/policy-mutants/blind-retry-after-timeout.ts';
import { booleanLeaderFlag } from '../../model/policy-mutants/boolean-leader-flag.ts';
import { cancelNonSupersedable } from '../../model/policy-mutants/cancel-non-supersedable.ts';
import { clientClockExpiry } from './client-clock-expiry.ts';
import { effectWithoutLeaseConfirmation } from '../../model/policy-mutants/effect-without-lease-confirmation.ts';
import { epochResetAfterRestore } from './epoch-reset-after-restore.ts';
import { holderNotStoppedOnRenewalFailure } from '../../model/policy-mutants/holder-not-stopped-on-renewal-failure.ts';
import { keyOnlyForceRelease } from './key-only-force-release.ts';
import { leaseWithoutSchedulerEpoch } from './lease-without-scheduler-epoch.ts';
import type { Mutant } from './mutant.ts';
import { noFencingCheck } from './no-fencing-check.ts';
import { releaseBeforeReconcile } from '../../model/policy-mutants/release-before-reconcile.ts';
import { removedLeaderKeepsRole } from '../../model/policy-mutants/removed-leader-keeps-role.ts';
import { renewalWithoutEpochCheck } from './renewal-without-epoch-check.ts';
import { semaphoreOffByOne } from './semaphore-off-by-one.ts';
import { capacityChecksFullOnly } from './capacity-checks-full-only.ts';
import { unknownTreatedAsFailure } from '../../model/policy-mutants/unknown-treated-as-failure.ts';

import { reentrantAcquire } from './reentrant-acquire.ts';
import { acquireBypassesQueue } from './acquire-bypasses-queue.ts';
import { anyWaiterAcquires } from './any-waiter-acquires.ts';
import { fifoIgnoresPriority } from './fifo-ignores-priority.ts';
import { priorityWithoutAging } from './priority-without-aging.ts';
import { releaseIgnoresToken } from './release-ignores-token.ts';
import { handoffKeepsToken } from './handoff-keeps-token.ts';
import { forceReleaseLowersToken } from './force-release-lowers-token.ts';
import { forceReleaseNoBurn } from './force-release-no-burn.ts';
import { mutateIgnoresExpiry } from './mutate-ignores-expiry.ts';
import { mutateIgnoresVersion } from './mutate-ignores-version.ts';
import { renewRevivesExpired } from './renew-revives-expired.ts';
import { fenceByAggregateHighWater } from './fence-by-aggregate-high-water.ts';
import { mutateWithoutRoleGuard } from './mutate-without-role-guard.ts';
import { recoveryKeepsLeases } from './recovery-keeps-leases.ts';
import { recoverySkipsBlock } from './recovery-skips-block.ts';
import { reservationsNotCounted } from './reservations-not-counted.ts';
import { expiredReservationConsumed } from './expired-reservation-consumed.ts';
import { digestIgnored } from './digest-ignored.ts';
import { idempotencyKeyUnscoped } from './idempotency-key-unscoped.ts';
import { unknownBeginsNew } from './unknown-begins-new.ts';
import { acquireAllKeepsPartial } from './acquire-all-keeps-partial.ts';
import { completeIgnoresDigest } from './complete-ignores-digest.ts';
import { groupModesCollapsed } from '../../model/policy-mutants/group-modes-collapsed.ts';
import { reopenWithoutInspection } from '../../model/policy-mutants/reopen-without-inspection.ts';
import { noRecheckAfterWait } from '../../model/policy-mutants/no-recheck-after-wait.ts';
import { forceReleaseRereadToken } from '../../model/policy-mutants/force-release-reread-token.ts';
import { noProviderFencing } from '../../model/policy-mutants/no-provider-fencing.ts';
import { tenantDroppedFromScope } from '../../model/policy-mutants/tenant-dropped-from-scope.ts';
import { retryWithoutInspection } from '../../model/policy-mutants/retry-without-inspection.ts';
import { nestedAcquireOrder } from '../../model/policy-mutants/nested-acquire-order.ts';
import { roleGuardSurvivesStepDown } from '../../model/policy-mutants/role-guard-survives-step-down.ts';
import { noCheckQuorum } from '../../model/policy-mutants/no-check-quorum.ts';
import { commitsOldTermEntries } from '../../model/policy-mutants/commits-old-term-entries.ts';
import { voteForgottenOnRestart } from '../../model/policy-mutants/vote-forgotten-on-restart.ts';
import { voteIgnoresLog } from '../../model/policy-mutants/vote-ignores-log.ts';
import { appendSkipsConsistencyCheck } from '../../model/policy-mutants/append-skips-consistency-check.ts';
import { wipedVoterVotes } from '../../model/policy-mutants/wiped-voter-votes.ts';
import { featureBeforeAllVoters } from '../../model/policy-mutants/feature-before-all-voters.ts';
import { transferBeforeStop } from '../../model/policy-mutants/transfer-before-stop.ts';
import { guardBeforeCommit } from '../../model/policy-mutants/guard-before-commit.ts';
import { voterWithoutLearnerStage } from '../../model/policy-mutants/voter-without-learner-stage.ts';
import { learnerPromotedBeforeCaughtUp } from '../../model/policy-mutants/learner-promoted-before-caught-up.ts';
import { minorityElection } from '../../model/policy-mutants/minority-election.ts';
import { roleEpochNotBumped } from '../../model/policy-mutants/role-epoch-not-bumped.ts';
import { newLeaderSkipsReclaim } from '../../model/policy-mutants/new-leader-skips-reclaim.ts';
import { forceWithoutObservedExpiry } from '../../model/policy-mutants/force-without-observed-expiry.ts';
import { orphanJudgedTooSoon } from '../../model/policy-mutants/orphan-judged-too-soon.ts';
import { arrivalOrderSupersedes } from '../../model/policy-mutants/arrival-order-supersedes.ts';
import { handlerOutlivesStalledRefresh } from '../../model/policy-mutants/handler-outlives-stalled-refresh.ts';

export { mutantStoreFactory, type Mutant } from './mutant.ts';

export const MUTANTS: ReadonlyArray<Mutant> = Object.freeze([
  // Store-level: each wraps the correct store and changes one rule.
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
  // Controller-level: each flips one policy flag.
  holderNotStoppedOnRenewalFailure,
  handlerOutlivesStalledRefresh,
  blindRetryAfterTimeout,
  unknownTreatedAsFailure,
  releaseBeforeReconcile,
  cancelNonSupersedable,
  booleanLeaderFlag,
  effectWithoutLeaseConfirmation,
  removedLeaderKeepsRole,
  groupModesCollapsed,
  arrivalOrderSupersedes,
  reopenWithoutInspection,
  noRecheckAfterWait,
  forceReleaseRereadToken,
  forceWithoutObservedExpiry,
  orphanJudgedTooSoon,
  noProviderFencing,
  tenantDroppedFromScope,
  retryWithoutInspection,
  nestedAcquireOrder,
  roleGuardSurvivesStepDown,
  noCheckQuorum,
  voterWithoutLearnerStage,
  learnerPromotedBeforeCaughtUp,
  minorityElection,
  roleEpochNotBumped,
  newLeaderSkipsReclaim,
  commitsOldTermEntries,
  voteForgottenOnRestart,
  voteIgnoresLog,
  appendSkipsConsistencyCheck,
  wipedVoterVotes,
  featureBeforeAllVoters,
  transferBeforeStop,
  guardBeforeCommit,
]);

/** The mutant named `name` (with or without the `mutant:` adapter prefix), or undefined. */
export function findMutant(name: string): Mutant | undefined {
  const bare = name.startsWith('mutant:') ? name.slice('mutant:'.length) : name;
  return MUTANTS.find((mutant) => mutant.name === bare);
}
