// The client protocol's decisions (seed 000 §2, §318), each behind one named flag. The default is
// the correct protocol; a controller-policy mutant flips exactly one flag.

export interface ControllerPolicy {
  /** On a failed renewal, enter OwnershipUncertain and start no new side effect (§157–§160, seed 003). */
  readonly stopOnRenewalFailure: boolean;
  /** After an unknown provider outcome, inspect the provider before any retry (§64–§65, §191). */
  readonly inspectBeforeRetry: boolean;
  /** Treat an unknown outcome as a failure and start over as new work (wrong: §53). */
  readonly unknownIsFailure: boolean;
  /** A generic retry layer re-issues a provider call that timed out, at once (wrong: §194). */
  readonly retryMiddleware: boolean;
  /** A waiter that got the lease re-checks that it is still the owner before acting (seed 003). */
  readonly recheckAfterWait: boolean;
  /** Send the fencing token to the provider where the operation supports it (§26–§28). */
  readonly sendFencingToken: boolean;
  /** Force release binds to the epoch observed and reconciled, never the current one (§201, seed 002). */
  readonly forceReleaseWithObservedEpoch: boolean;
  /** Force release also binds to the expiry observed, so a renewal after the judgement refuses it (seed 002 022d1f8, ebe1ab8). */
  readonly forceBindsObservedExpiry: boolean;
  /** A holder is judged stalled only when its lease's expiry did not move over two renewal intervals (seed 002 b1a49c3). */
  readonly judgeStallOverRenewals: boolean;
  /**
   * A holder's handler stops once its lease's local validity window has passed (measured from the
   * send of its last confirmed grant or renewal, less the clock-drift bound), even while a renewal
   * is still in flight: the refresh call is bounded (seed 002 "Why staged" 2; 003 0892821; §157–§160).
   */
  readonly boundWorkByLease: boolean;
  /** Release the lease before the in-flight effect is reconciled (wrong: §115–§117, §288). */
  readonly releaseBeforeReconcile: boolean;
  /** Let CancelPrevious cancel non-supersedable work (wrong: §119–§121). */
  readonly cancelNonSupersedable: boolean;
  /** Acquire several scopes in canonical order, all or nothing (§100–§105). */
  readonly canonicalOrder: boolean;
  /** Check the lease's local validity window before each side effect (§157–§158). */
  readonly checkLeaseBeforeEffect: boolean;
  /** Role mutations carry the typed role guard the coordination service issued (seed 001 §296–§305); off: a boolean leader flag. */
  readonly roleGuard: boolean;
  /** A node removed from the cluster gives up its roles at the commit (seed 001 §64, §215, §244). */
  readonly stepDownOnRemoval: boolean;
  /** Concurrency groups keep their mode: Queue and RejectNew never run two runs at once (§10–§17). */
  readonly enforceGroupModes: boolean;
  /** CancelPrevious orders runs by admission, not by arrival at the group: a late old run never supersedes a newer one (seed 003). */
  readonly supersedeByAdmission: boolean;
  /** After failover or restore, inspect every in-flight effect of a blocked scope before reopening it (§272–§276). */
  readonly inspectBeforeReopen: boolean;
  /** Scope ids are derived from the tenant-qualified reference (§242–§250). */
  readonly scopeIdsCarryTenant: boolean;
  /** A role guard is valid only while its process holds the role: stepping down ends it (seed 001 §294). */
  readonly guardEndsWithRole: boolean;
  /** A leader whose heartbeats stop reaching a majority steps down within its window (seed 001 §74–§75). */
  readonly checkQuorum: boolean;
  /** A new member joins as a learner and votes only once promoted (seed 001 §16–§17, §62–§63). */
  readonly learnerFirst: boolean;
  /** An election needs a majority of the voters (seed 001 §67–§71). */
  readonly majorityElections: boolean;
  /** A new leader's role guard carries the epoch its own election committed (seed 001 §29, §82–§88). */
  readonly newRoleEpochPerLeader: boolean;
  /** A new leader makes the jobs another process left half-dispatched eligible again (seed 001 §84–§88, §259). */
  readonly reclaimOnLead: boolean;
}

export const CORRECT_POLICY: ControllerPolicy = Object.freeze({
  stopOnRenewalFailure: true,
  inspectBeforeRetry: true,
  unknownIsFailure: false,
  retryMiddleware: false,
  recheckAfterWait: true,
  sendFencingToken: true,
  forceReleaseWithObservedEpoch: true,
  forceBindsObservedExpiry: true,
  judgeStallOverRenewals: true,
  boundWorkByLease: true,
  releaseBeforeReconcile: false,
  cancelNonSupersedable: false,
  canonicalOrder: true,
  checkLeaseBeforeEffect: true,
  roleGuard: true,
  stepDownOnRemoval: true,
  enforceGroupModes: true,
  supersedeByAdmission: true,
  inspectBeforeReopen: true,
  scopeIdsCarryTenant: true,
  guardEndsWithRole: true,
  checkQuorum: true,
  learnerFirst: true,
  majorityElections: true,
  newRoleEpochPerLeader: true,
  reclaimOnLead: true,
});

export const POLICY_FLAGS: ReadonlyArray<keyof ControllerPolicy> = Object.freeze(
  Object.keys(CORRECT_POLICY).sort() as Array<keyof ControllerPolicy>,
);

export function controllerPolicy(partial?: Partial<ControllerPolicy>): ControllerPolicy {
  const merged: ControllerPolicy = { ...CORRECT_POLICY, ...(partial ?? {}) };
  for (const flag of POLICY_FLAGS) {
    if (typeof merged[flag] !== 'boolean') throw new TypeError(`policy flag ${flag} must be a boolean`);
  }
  return Object.freeze(merged);
}
