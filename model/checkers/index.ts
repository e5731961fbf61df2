// The invariant checkers, composed by name (docs/ARCHITECTURE.md "History and checkers"). Names are stable
// and kebab-case: scenario files and reports use them. A checker that throws yields 'unknown' for
// its invariant, never a pass (Jepsen).

import type { History } from '../history.ts';
import type { Checker, Verdict, Violation } from '../verdict.ts';
import { artifactFromCas } from './artifact-from-cas.ts';
import { agentsReconnect } from './agents-reconnect.ts';
import { attemptsContinue } from './attempts-continue.ts';
import { capacity } from './capacity.ts';
import { capacityRefusal } from './capacity-refusal.ts';
import { concurrencyGroup } from './concurrency-group.ts';
import { digestConflict } from './digest-conflict.ts';
import { clusterDoctorChecker } from './cluster-doctor.ts';
import { drainedLeaderStops } from './drained-leader-stops.ts';
import { featureActivation } from './feature-activation.ts';
import { fencedStaleLeader } from './fenced-stale-leader.ts';
import { fencingMonotonic } from './fencing-monotonic.ts';
import { historyRetained } from './history-retained.ts';
import { idempotencyFinal } from './idempotency-final.ts';
import { idempotencyScope } from './idempotency-scope.ts';
import { jobsComplete } from './jobs-complete.ts';
import { learnerBeforeVoter } from './learner-before-voter.ts';
import { maintenanceRespected } from './maintenance-respected.ts';
import { peersAuthenticated } from './peers-authenticated.ts';
import { leaseExclusive } from './lease-exclusive.ts';
import { forceReleaseAudited } from './force-release-audited.ts';
import { forceReleaseJudged } from './force-release-judged.ts';
import { liveness } from './liveness.ts';
import { noBlindRetry } from './no-blind-retry.ts';
import { noLostUpdate } from './no-lost-update.ts';
import { noPhantomLease } from './no-phantom-lease.ts';
import { outcomeAtReturn } from './outcome-at-return.ts';
import { runsDoWork } from './runs-do-work.ts';
import { noSplitPromotion } from './no-split-promotion.ts';
import { oneLeaderPerTerm } from './one-leader-per-term.ts';
import { streamGapless } from './stream-gapless.ts';
import { oneOwnerPerEpoch } from './one-owner-per-epoch.ts';
import { quorumInOneRegion } from './quorum-in-one-region.ts';
import { quorumLossDegraded } from './quorum-loss-degraded.ts';
import { raftElectionSafety } from './raft-election-safety.ts';
import { raftLeaderCompleteness } from './raft-leader-completeness.ts';
import { raftLogBounded } from './raft-log-bounded.ts';
import { raftLogMatching } from './raft-log-matching.ts';
import { raftLogNarrow } from './raft-log-narrow.ts';
import { raftStateMachineSafety } from './raft-state-machine-safety.ts';
import { releaseAfterReconcile } from './release-after-reconcile.ts';
import { removedNodeNoAuthority } from './removed-node-no-authority.ts';
import { restoreForgets } from './restore-forgets.ts';
import { restoreInvalidates } from './restore-invalidates.ts';
import { siteAuthorityFirst } from './site-authority-first.ts';
import { tenantIsolation } from './tenant-isolation.ts';
import { unknownNotNew } from './unknown-not-new.ts';
import { workWithinLease } from './work-within-lease.ts';

export { differential } from './differential.ts';

export const INVARIANT_NAMES = [
  'one-owner-per-epoch',
  'lease-exclusive',
  'fencing-monotonic',
  'no-blind-retry',
  'unknown-not-new',
  'digest-conflict',
  'idempotency-scope',
  'capacity',
  'release-after-reconcile',
  'force-release-audited',
  'force-release-judged',
  'restore-invalidates',
  'liveness',
  'one-leader-per-term',
  'fenced-stale-leader',
  'no-split-promotion',
  'quorum-loss-degraded',
  'learner-before-voter',
  'removed-node-no-authority',
  'jobs-complete',
  'concurrency-group',
  'tenant-isolation',
  'work-within-lease',
  'no-phantom-lease',
  'no-lost-update',
  'raft-election-safety',
  'raft-log-matching',
  'raft-leader-completeness',
  'raft-state-machine-safety',
  'raft-log-bounded',
  'raft-log-narrow',
  'feature-activation',
  'cluster-doctor',
  'drained-leader-stops',
  'stream-gapless',
  'agents-reconnect',
  'attempts-continue',
  'peers-authenticated',
  'maintenance-respected',
  'artifact-from-cas',
  'quorum-in-one-region',
  'site-authority-first',
  'outcome-at-return',
  'history-retained',
  'idempotency-final',
  'capacity-refusal',
  'restore-forgets',
  'runs-do-work',
] as const;

export type InvariantName = (typeof INVARIANT_NAMES)[number];

export const CHECKERS: Readonly<Record<InvariantName, Checker>> = Object.freeze({
  'one-owner-per-epoch': oneOwnerPerEpoch,
  'lease-exclusive': leaseExclusive,
  'fencing-monotonic': fencingMonotonic,
  'no-blind-retry': noBlindRetry,
  'unknown-not-new': unknownNotNew,
  'digest-conflict': digestConflict,
  'idempotency-scope': idempotencyScope,
  capacity,
  'release-after-reconcile': releaseAfterReconcile,
  'force-release-audited': forceReleaseAudited,
  'force-release-judged': forceReleaseJudged,
  'restore-invalidates': restoreInvalidates,
  liveness,
  'one-leader-per-term': oneLeaderPerTerm,
  'fenced-stale-leader': fencedStaleLeader,
  'no-split-promotion': noSplitPromotion,
  'quorum-loss-degraded': quorumLossDegraded,
  'learner-before-voter': learnerBeforeVoter,
  'removed-node-no-authority': removedNodeNoAuthority,
  'jobs-complete': jobsComplete,
  'concurrency-group': concurrencyGroup,
  'tenant-isolation': tenantIsolation,
  'work-within-lease': workWithinLease,
  'no-phantom-lease': noPhantomLease,
  'no-lost-update': noLostUpdate,
  'raft-election-safety': raftElectionSafety,
  'raft-log-matching': raftLogMatching,
  'raft-leader-completeness': raftLeaderCompleteness,
  'raft-state-machine-safety': raftStateMachineSafety,
  'raft-log-bounded': raftLogBounded,
  'raft-log-narrow': raftLogNarrow,
  'feature-activation': featureActivation,
  'cluster-doctor': clusterDoctorChecker,
  'drained-leader-stops': drainedLeaderStops,
  'stream-gapless': streamGapless,
  'agents-reconnect': agentsReconnect,
  'attempts-continue': attemptsContinue,
  'peers-authenticated': peersAuthenticated,
  'maintenance-respected': maintenanceRespected,
  'artifact-from-cas': artifactFromCas,
  'quorum-in-one-region': quorumInOneRegion,
  'site-authority-first': siteAuthorityFirst,
  'outcome-at-return': outcomeAtReturn,
  'history-retained': historyRetained,
  'idempotency-final': idempotencyFinal,
  'capacity-refusal': capacityRefusal,
  'restore-forgets': restoreForgets,
  'runs-do-work': runsDoWork,
});

export function isInvariantName(name: string): name is InvariantName {
  return (INVARIANT_NAMES as ReadonlyArray<string>).includes(name);
}

export interface CombinedVerdict extends Verdict {
  readonly byInvariant: Readonly<Partial<Record<InvariantName, Verdict>>>;
}

/** Runs one checker; an exception means it could not decide. */
function runChecker(name: InvariantName, checker: Checker, history: History): Verdict {
  try {
    return checker(history);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { valid: 'unknown', violations: [{ invariant: name, message: `checker could not decide: ${reason}` }] };
  }
}

/**
 * Checks the named invariants. The combined verdict is false if any is false, else 'unknown' if
 * any is unknown, else true. `violations` holds the entries of every verdict that is not true: a
 * false verdict's violations and an unknown verdict's reasons.
 */
export function checkAll(history: History, names: ReadonlyArray<InvariantName>, checkers: Readonly<Record<InvariantName, Checker>> = CHECKERS): CombinedVerdict {
  const byInvariant: Partial<Record<InvariantName, Verdict>> = {};
  const violations: Violation[] = [];
  for (const name of names) {
    const verdict = runChecker(name, checkers[name], history);
    byInvariant[name] = verdict;
    if (verdict.valid !== true) violations.push(...verdict.violations);
  }
  const verdicts = Object.values(byInvariant);
  const valid = verdicts.some((v) => v.valid === false) ? false : verdicts.some((v) => v.valid === 'unknown') ? 'unknown' : true;
  return { valid, violations, byInvariant };
}
