// The client protocol's decisions (seed 000 §2, §318), each behind one named flag. The default is
// the correct protocol; a controller-policy mutant flips exactly one flag.

/**
 * Every flag of the policy with its correct value, each with what it decides: the one list the
 * policy type, the correct policy and the flag names are derived from.
 */
const FLAGS = {
  /** On a failed renewal, enter OwnershipUncertain and start no new side effect (§157–§160, seed 003). */
  stopOnRenewalFailure: true,
  /** After an unknown provider outcome, inspect the provider before any retry (§64–§65, §191). */
  inspectBeforeRetry: true,
  /** Treat an unknown outcome as a failure and start over as new work (wrong: §53). */
  unknownIsFailure: false,
  /** A generic retry layer re-issues a provider call that timed out, at once (wrong: §194). */
  retryMiddleware: false,
  /** A waiter that got the lease re-checks that it is still the owner before acting (seed 003). */
  recheckAfterWait: true,
  /** Send the fencing token to the provider where the operation supports it (§26–§28). */
  sendFencingToken: true,
  /** Force release binds to the epoch observed and reconciled, never the current one (§201, seed 002). */
  forceReleaseWithObservedEpoch: true,
  /** Force release also binds to the expiry observed, so a renewal after the judgement refuses it (seed 002 022d1f8, ebe1ab8). */
  forceBindsObservedExpiry: true,
  /** A holder is judged stalled only when its lease's expiry did not move over two renewal intervals (seed 002 b1a49c3). */
  judgeStallOverRenewals: true,
  /**
   * A holder's handler stops once its lease's local validity window has passed (measured from the
   * send of its last confirmed grant or renewal, less the clock-drift bound), even while a renewal
   * is still in flight: the refresh call is bounded (seed 002 "Why staged" 2; 003 0892821; §157–§160).
   */
  boundWorkByLease: true,
  /**
   * A run is classified by its cancellation cause as it stood when its handler returned, read
   * before the refresh loop is drained: a lease loss that lands after the return cannot turn a
   * completed run into a preempted one, nor hide a handler error (seed 003).
   */
  snapshotCauseAtReturn: true,
  /** Release the lease before the in-flight effect is reconciled (wrong: §115–§117, §288). */
  releaseBeforeReconcile: false,
  /** A run whose cancellation was requested before its effect started sends no new side effect (§115–§117). */
  stopCancelledRuns: true,
  /** A run that nothing stopped calls its provider: the external effect is the work it runs for (§59–§61, §115–§117). */
  callProvider: true,
  /** Let CancelPrevious cancel non-supersedable work (wrong: §119–§121). */
  cancelNonSupersedable: false,
  /** Acquire several scopes in canonical order, all or nothing (§100–§105). */
  canonicalOrder: true,
  /** Check the lease's local validity window before each side effect (§157–§158). */
  checkLeaseBeforeEffect: true,
  /** Role mutations carry the typed role guard the coordination service issued (seed 001 §296–§305); off: a boolean leader flag. */
  roleGuard: true,
  /** A node removed from the cluster gives up its roles at the commit (seed 001 §64, §215, §244). */
  stepDownOnRemoval: true,
  /** Concurrency groups keep their mode: Queue and RejectNew never run two runs at once (§10–§17). */
  enforceGroupModes: true,
  /** CancelPrevious orders runs by admission, not by arrival at the group: a late old run never supersedes a newer one (seed 003). */
  supersedeByAdmission: true,
  /** After failover or restore, inspect every in-flight effect of a blocked scope before reopening it (§272–§276). */
  inspectBeforeReopen: true,
  /** Scope ids are derived from the tenant-qualified reference (§242–§250). */
  scopeIdsCarryTenant: true,
  /** A role guard is valid only while its process holds the role: stepping down ends it (seed 001 §294). */
  guardEndsWithRole: true,
  /** A leader whose heartbeats stop reaching a majority steps down within its window (seed 001 §74–§75). */
  checkQuorum: true,
  /** A new member joins as a learner and votes only once promoted (seed 001 §16–§17, §62–§63). */
  learnerFirst: true,
  /** A learner is promoted only once it knows the committed epoch: it caught up (seed 001 §62). */
  promoteWhenCaughtUp: true,
  /** An election needs a majority of the voters (seed 001 §67–§71). */
  majorityElections: true,
  /** A new leader's role guard carries the epoch its own election committed (seed 001 §29, §82–§88). */
  newRoleEpochPerLeader: true,
  /** A leader dispatches again a job left leased by an attempt whose lease is gone (seed 001 §84–§85, §88, §259). */
  reclaimOnLead: true,
  /** A scheduled job's attempt runs on under its database lease when its leader loses the role (seed 001 §76–§77, §276). */
  attemptsOutliveRole: true,
  /** A restarted node is a new incarnation that inherits no role or guard of the process before it (seed 001 §12–§13, §266). */
  restartIsNewProcess: true,
  /** A Raft leader commits by counting replicas only entries of its own term (Raft paper 5.4.2; seed 001 §283). */
  commitCurrentTermOnly: true,
  /** A Raft vote is durable: a restarted voter remembers whom it voted for in its term (seed 001 §167, §169). */
  votesPersist: true,
  /** A Raft voter votes only for a candidate whose log is at least as up to date as its own (Raft paper 5.4.1; seed 001 §283). */
  votesNeedUpToDateLog: true,
  /** A Raft follower appends only after the leader's previous entry matches its own (Raft paper 5.3; seed 001 §283). */
  appendChecksPrevious: true,
  /** A Raft voter that lost its durable state fails safe: it never votes or stands again (seed 001 §168–§169, §272). */
  lostStateFailsSafe: true,
  /** A Raft leader uses a command version only once every voter has said it runs a binary that reads it (seed 001 §152–§156). */
  featuresWaitForAllVoters: true,
  /** A drained Raft leader stops its role (inactive, loops cancelled, epoch dropped) before it hands leadership on (seed 001 §270, §294). */
  stopRoleBeforeTransfer: true,
  /** A Raft leader takes its role only once its own entry is committed and applied, not when it appends it (seed 001 §83, §93, §243). */
  guardAfterCommit: true,
  /** A Raft node replaces what it applied with a snapshot every `snapshotEntries` entries (seed 001 §338 "Raft log/snapshots are bounded/compacted"). */
  compactsLog: true,
  /** A Raft snapshot covers only committed, applied entries (Raft paper section 7; seed 001 §283). */
  snapshotsCommittedOnly: true,
  /** A daemon acts on a peer only once it presents a certificate the cluster issued (seed 001 §56, §217). */
  authenticatePeers: true,
  /** A peer's certificate must bind the node it claims to be (seed 001 §57–§58, §207). */
  certificateBindsNode: true,
  /** A revoked certificate authenticates no one (seed 001 §214–§215). */
  checkRevocation: true,
  /** A daemon takes roles from the coordination epochs only, never from the platform's leader election (seed 001 §202–§204). */
  rolesFromCoordinationOnly: true,
  /** An operator's maintenance change is committed through consensus, so every daemon sees it (seed 001 §129–§131). */
  maintenanceThroughConsensus: true,
  /** A role loop starts no new work that the maintenance state stops (seed 001 §129, §306). */
  honourMaintenance: true,
  /** The public API refuses raw coordination commands: only the typed cluster service proposes (seed 001 §220–§223). */
  refuseRawCommands: true,
  /** An attempt makes its job's effect only with the artifact it fetched from the artifact store (seed 001 §4, §278). */
  effectsNeedArtifact: true,
  /** Artifact bytes stay in the artifact store: the consensus log never carries them (seed 001 §3, §338). */
  artifactsStayInCas: true,
  /** The bootstrap voters all run in one region: the quorum never spans a wide-area link (seed 001 §187–§189). */
  votersInOneRegion: true,
  /** Job and run rows stay in the store: the Raft log replicates coordination commands only (seed 001 §338, §340 "Raft is not the business database"). */
  jobsStayInStore: true,
  /** A reconnected event stream resumes after the agent's cursor: it backfills what it missed (seed 001 §112, §275). */
  streamResumesAtCursor: true,
  /** A reconnected event stream stays live after it has sent the backlog (seed 001 §112, §275). */
  streamStaysLive: true,
  /** Any daemon serves the event stream from the database, not from what its own process saw (seed 001 §102, §113, §116). */
  apiReadsDatabase: true,
  /** An agent whose daemon died reconnects to another daemon that is up (seed 001 §114–§115, §274). */
  agentsFailOver: true,
  /** Every committed membership change gets its audit record, removals included (seed 001 §227, §338 "Cluster membership changes are audited"). */
  auditEveryMembershipChange: true,
  /**
   * A federated site that the store fences on a domain's authority epoch stops acting in that
   * domain until the federation tells it who holds it; it never falls back to its local locks
   * (seed 000 §167–§169, §268, §296).
   */
  fencedSiteStops: true,
} as const;

export type ControllerPolicy = { readonly [F in keyof typeof FLAGS]: boolean };

export const CORRECT_POLICY: ControllerPolicy = Object.freeze({ ...FLAGS });

export const POLICY_FLAGS: ReadonlyArray<keyof ControllerPolicy> = Object.freeze(
  Object.keys(CORRECT_POLICY).sort() as Array<keyof ControllerPolicy>,
);

/** The flags of `policy` that differ from the correct protocol. */
export function policyFlips(policy: Partial<ControllerPolicy>): Partial<ControllerPolicy> {
  return Object.fromEntries(POLICY_FLAGS.flatMap((flag) => (policy[flag] !== undefined && policy[flag] !== CORRECT_POLICY[flag] ? [[flag, policy[flag]]] : [])));
}

export function controllerPolicy(partial?: Partial<ControllerPolicy>): ControllerPolicy {
  const merged: ControllerPolicy = { ...CORRECT_POLICY, ...(partial ?? {}) };
  for (const flag of POLICY_FLAGS) {
    if (typeof merged[flag] !== 'boolean') throw new TypeError(`policy flag ${flag} must be a boolean`);
  }
  return Object.freeze(merged);
}
