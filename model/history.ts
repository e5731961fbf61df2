// A Jepsen-shaped history (docs/ARCHITECTURE.md "History and checkers"). Client operations are
// invoke/ok/fail/info; `info` means the outcome is unknown and the process is retired.
// Faults and ground truth are recorded in the same history, in the same index order.

export type OpType = 'invoke' | 'ok' | 'fail' | 'info';

/**
 * A client operation. `f` is a store command kind (`Acquire`, `Mutate`, ...) — then `value` is
 * the command on invoke and its outcome on ok — or a controller-level operation:
 * - `effect`: a call to the external provider; value `{ intentId, scope, token, holder, operation, retrySafety, attempt }`
 *   on invoke, `{ applied: boolean }` on ok; an ok `{ timedOut: true }` (no `applied`) means the reply did not say;
 * - `inspect`: a provider inspection before any retry; value `{ intentId }`, on ok `{ applied: boolean }`;
 * - `cancel`: a workflow-group cancellation; value `{ group, runId, supersedable, mode }`; on ok,
 *   `{ released?: [{ scope, token }] }` lists the leases the cancellation released;
 * - `group-submit`: a workflow-group submission; value `{ group, runId, mode, supersedable }` / decision;
 * - `wait`: a waiter's whole wait; value `{ scope, waiterId }`, ok when it got the lease.
 * - `site-authority`: a federated site's controller refused an operation because its site does
 *   not hold the authority of the operation's domain as far as it knows; value
 *   `{ domain, site, scope }` on invoke, fail `{ reason, epoch }` (seed 000 §167).
 * - `job`: a job the coordination scheduler took (seed 001), its own process `job:<id>`; value
 *   `{ jobId, scope }` on invoke, ok `{ jobId, token }` when an attempt finished it, fail
 *   `{ jobId, unfinished }` when the run ended first.
 * - `run`: a handler's run under its leases (sim/handler-run.ts), its own process
 *   `<incarnation>:run<n>`; value `{ scope, token, holder }` (its first lease) on invoke, opened
 *   once the leases are held; closed, once the handler returned and its refresh loop drained, ok
 *   `{ outcome: 'completed' }`, or fail `{ outcome: 'error' }` or `{ outcome: 'preempted', cause }`:
 *   how the runtime classified the run (seed 003).
 */
export interface OpEvent {
  readonly index: number;
  readonly time: number;
  readonly process: string;
  readonly type: OpType;
  readonly f: string;
  readonly value: unknown;
}

export type FaultKind =
  | 'partition'
  | 'heal'
  | 'pause'
  | 'resume'
  | 'crash'
  | 'restart'
  | 'clock-skew'
  | 'message-loss'
  | 'db-crash'
  | 'db-restart'
  | 'db-failover'
  | 'db-restore'
  | 'provider-timeout'
  | 'quorum-loss'
  | 'quorum-restored'
  | 'leader-change'
  | 'membership-change'
  | 'membership-rejected'
  | 'raft-cluster'
  | 'raft-elected'
  | 'raft-unreadable'
  | 'raft-applied'
  | 'raft-snapshot'
  | 'voter-state-loss'
  | 'voter-upgrade'
  | 'leader-transfer'
  | 'impostor'
  | 'certificate'
  | 'orchestrator-lease'
  | 'maintenance-change'
  | 'api-request'
  | 'cas-outage'
  | 'wan-partition'
  | 'wan-heal'
  | 'federation'
  | 'site-cut'
  | 'site-heal'
  | 'site-failover'
  | 'agent-fleet'
  | 'agent-connected'
  | 'agent-disconnected'
  | 'agent-received'
  | 'liveness-phase';

/**
 * A nemesis action, recorded where it happened. `value` describes the fault; the checkers read:
 * - `db-restore`, `db-failover`: `{ blockedScopes?: string[] }`, the scopes that stay blocked until reconciled;
 * - `liveness-phase`: `{ boundMs: number }`, faults are healed and every wait completes within that bound;
 * - `membership-change`: `{ version, change: 'bootstrap' | 'add-learner' | 'promote' | 'remove', node, voters, learners, by }`,
 *   the audit record of one committed configuration (`by`: the leader incarnation that committed it); a
 *   `promote` also carries `learnerEpoch` and `committedEpoch`, what the learner had caught up to;
 * - `raft-elected` (message-level consensus): `{ term, node, process, votes, log }`, a candidate won
 *   the votes of a majority; `log` is the terms of its entries, in order, null where a snapshot
 *   replaced them (the snapshot's last index keeps its term);
 * - `raft-applied`: `{ node, process, index, term, leader, version, command? }`, a node applied the
 *   entry at `index` (of `term`, electing `leader`, encoded at command `version`) to its
 *   coordination state machine; `command` names an entry that is not an ElectLeader (with
 *   `leader`, then, the leader that appended it);
 * - `raft-snapshot`: `{ node, process, index, term, installed }`, a node replaced its log up to
 *   `index` (an entry of `term`) with a snapshot: its own (`installed` false) or its leader's;
 * - `raft-cluster`: `{ voters, version, snapshotEntries? }`, first: the voters, the binary version
 *   they all start on, and how many applied entries a node keeps before it compacts;
 * - `agent-fleet` `{ agents, daemons, pollMs, reconnectMs }`, then `agent-connected` `{ agent, daemon, process,
 *   cursor }`, `agent-disconnected` `{ agent, daemon, process }` (its daemon was gone) and
 *   `agent-received` `{ agent, daemon, seqs }` (the event sequence numbers one poll delivered);
 * - `raft-unreadable`: `{ node, process, index, version, reads }`, a node's binary cannot read a
 *   committed entry, and it applies nothing from there on.
 * - `certificate`: `{ action: 'issued' | 'revoked', node, serial, reason? }`, the cluster issued a
 *   node its certificate or revoked one (`reason`: 'removed' or 'rotated');
 * - `impostor`: `{ claims, credential, certificate, term, accepted, refused }`, a process claiming
 *   the voter `claims` and presenting `certificate` (null: none) asked for votes in `term`; the
 *   voters that believed it and those that refused it;
 * - `orchestrator-lease`: `{ node, durationMs }`, the platform's leader election named `node`
 *   leader for `durationMs`, whatever the coordination layer decided;
 * - `maintenance-change`: `{ epoch, state, by, roleEpoch }`, the maintenance state became `state`
 *   at maintenance `epoch`, set by the incarnation `by` while the role epoch was `roleEpoch`;
 * - `api-request`: `{ command, term, leader, accepted }`, a public client asked the API to propose
 *   a raw coordination command, and whether it was proposed;
 * - `cas-outage`: `{ durationMs }`, the artifact store stops answering for that long;
 * - `wan-partition`: `{ regions, voters, durationMs }`, the links between the daemons of different
 *   regions (the names of each region, in order) are cut, until the next `wan-heal`; `voters`: the
 *   voters of the configuration in force.
 * - `federation` (first, in a federated run): `{ sites, domains }`, the controllers of each site
 *   (site n is `sites[n - 1]`) and, per domain, `{ domain, role, site, epoch, scopes }`: the site
 *   that holds its authority under `epoch` of the role epoch `role` from the start, and its scopes;
 * - `site-cut`: `{ site, nodes, durationMs }`, the site's WAN links (to the other sites and to the
 *   federation's authority service) are cut until the next `site-heal` `{ site, learned }`, at
 *   which the site learns the authority of every domain (`learned`: `{ domain, site, epoch }`);
 *   its links to the database stay up;
 * - `site-failover`: `{ domain, role, from, to, epoch }`, the authority of `domain` moved from site
 *   `from` to site `to` under the new `epoch`; `{ domain, skipped: true, reason }` when no site
 *   could take it.
 */
export interface FaultEvent {
  readonly index: number;
  readonly time: number;
  readonly process: 'nemesis';
  readonly type: 'fault';
  readonly f: FaultKind;
  readonly value: Readonly<Record<string, unknown>>;
}

/**
 * Ground truth, recorded by the protected resource itself rather than by a client:
 * - provider `effect-applied`: `{ intentId, scope, token, holder, operation }` — an external effect actually happened;
 * - resource `mutation-accepted`: `{ scope, aggregate, token, holder, version }` — a protected write actually landed;
 * - database `interleaving` (`--interleave`, `--concurrency free`): `{ calls, schedule, finished }` —
 *   the sessions whose calls ran at once, the session of each statement in the order the server
 *   got them (empty when free-running), and the sessions in the order their calls finished;
 * - handler `work-step`: `{ scope, token, holder, process }` — a lease holder's handler did one unit
 *   of unfenced work (only when the plan's operations carry `workStepMs`);
 * - handler `handler-returned`: `{ process, result: 'ok' | 'error' }` — the handler of the `run` of
 *   `process` returned, with its own result;
 * - handler `cancel-cause`: `{ process, cause }` — the runtime learned that the `run` of `process`
 *   must stop (`renewal-refused`, `write-refused`, `window-passed`, `unconfirmed`: no confirmation of
 *   its lease came back in time to act on, `cancelled`): the first such
 *   cause, recorded when seen, before or after the handler returned, until the run is classified;
 * - database `own-semantics`: `{}`, once, first: the store declared semantics of its own
 *   (`capabilities.referenceSemantics` false); rules that are the rule book's choices, not the
 *   seed's, are not asked of it;
 * - database `session-leases`: `{}`, once, first: the store's leases are bound by their holders'
 *   sessions, not by their TTL (its `capabilities.leaseBound` is 'session');
 * - database `session-ended`: `{ scope, holder, token, cause, process }` — the store said that this
 *   lease ended with its holder's session when it was told `cause` (a crash, a cut-off, ...);
 * - database `cluster-doctor`: `{ storeRoleEpochs, roles, voters }`, once, last, when the scenario
 *   asks for the `cluster-doctor` invariant: the store's role epochs (its Inspect view) and the
 *   committed coordination roles and voters, as the run ended;
 * - database `fencing`: `{ kind }`, once, before any store call: the store's fences are not integers ('opaque' or
 *   'none'); its tokens in the history are ids given in the order the store showed them, and no
 *   order of the store's own may be asked of them.
 * - database `renewal`: `{ kind: 'confirms' }`, once, before any store call: the store's renewals
 *   confirm a lease without extending it (`capabilities.renewal`); a Renewed vouches for no more
 *   of the lease than its grant did.
 */
export interface TruthEvent {
  readonly index: number;
  readonly time: number;
  readonly process: 'provider' | 'resource' | 'database' | 'handler';
  readonly type: 'truth';
  readonly f: 'effect-applied' | 'mutation-accepted' | 'interleaving' | 'instrumented' | 'work-step' | 'handler-returned' | 'cancel-cause' | 'own-semantics' | 'session-leases' | 'session-ended' | 'fencing' | 'renewal' | 'cluster-doctor';
  readonly value: Readonly<Record<string, unknown>>;
}

export type HistoryEvent = OpEvent | FaultEvent | TruthEvent;
export type History = ReadonlyArray<HistoryEvent>;
