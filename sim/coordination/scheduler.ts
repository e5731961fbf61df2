// The business layer under coordination (seed 001 §36–§41, §83–§85, §93–§96): the leader's
// scheduler loop and the job attempts it starts. The loop holds a role guard, never a flag
// (§296–§303): it writes its epoch to the store first (AdvanceRoleEpoch), rebuilds its queue from
// the jobs table on every scan rather than from memory (ListJobs, §84–§85), and dispatches each job
// with the guard: DispatchJob creates the lease and marks the job in one transaction (§93). A job
// left leased by an attempt that died is dispatched again once its lease is gone (§84–§88). A
// Fenced answer stops the role at once (§96). Attempts already running keep going under their
// database leases when leadership is lost (§76–§77); a release or deployment coordinator's
// promotion also carries the guard (§94) and is blocked without one (§78–§79). After a database
// failover or restore, a scope blocked for reconciliation is reopened by the leader once it has
// inspected the effects of the scope's unfinished jobs (000 §275), and every attempt inspects the
// provider before its effect, so an effect the restored rows forgot is not made twice.

import type { MutateCommand } from '../../model/commands.ts';
import type { ArtifactStore } from './artifact-store.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import type { JobRow, Lease, ListedJob } from '../../model/outcomes.ts';
import { wireGuard, type RoleGuard } from '../../model/role-guard.ts';
import type { Fiber, Node, Sim } from '../engine.ts';
import { confirm } from '../lease-protocol.ts';
import { extendWindow, monoNow } from '../handler-work.ts';
import type { OpSpec } from '../plan.ts';
import type { JobTable } from './jobs.ts';

/** What the scheduler may ask of the coordination service. */
export interface RoleAuthority {
  readonly role: CoordinatedRole;
  /** The guard this node's current process holds, or null when it holds no role. */
  guard(node: Node): RoleGuard | null;
  /** The node's current process still leads under `epoch`, though its guard may be withheld for now (check-quorum). */
  leads(node: Node, epoch: number): boolean;
  /** A job's lease was created under the role (message-level consensus may act on it). */
  dispatched?(node: Node, scope: string, jobId: string): void;
  /** Where the jobs' artifacts are fetched from, when they have any (001 §4, §278). */
  readonly artifacts?: ArtifactStore | null;
  /** The maintenance state stops this role's new work now (§129, §306). */
  schedulingPaused?(node: Node): boolean;
  /** The store answered Fenced: stop the role now and refresh the cluster view (§96). */
  fenced(node: Node): void;
  /** Send guards with role mutations (the correct protocol), or act on "holds a role" alone. */
  readonly sendGuards: boolean;
  readonly tickMs: number;
  nextAttempt(): number;
}

/** The leader's role loop, started when its node wins an election. */
export async function lead(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber): Promise<void> {
  const node = fiber.node;
  const first = authority.guard(node);
  if (first === null) return;
  // The new epoch reaches the store before any lease is created under it (§83, §93).
  const advanced = await sim.call(fiber, { kind: 'AdvanceRoleEpoch', role: authority.role, epoch: first.epoch });
  if (advanced === null) return;
  if (advanced.kind === 'Fenced') {
    authority.fenced(node);
    return;
  }
  // The loop serves the epoch it started under: once the node holds no guard, or a newer one
  // (it lost and won again, and a newer loop started), this loop ends.
  const current = (): RoleGuard | null => {
    const guard = authority.guard(node);
    return guard !== null && guard.epoch === first.epoch ? guard : null;
  };
  // A guard withheld while the leader has not heard a majority for a while (a pause, a slow
  // heartbeat: §74) comes back with the next majority contact; the loop waits for it, and ends
  // only once the role itself is gone. Nothing else would restart it: no election follows.
  const standing = async (): Promise<RoleGuard | null> => {
    for (;;) {
      const guard = current();
      if (guard !== null) return guard;
      if (!authority.leads(node, first.epoch)) return null;
      await sim.sleepLocal(fiber, authority.tickMs);
    }
  };
  for (;;) {
    if ((await standing()) === null) return;
    const listed = await sim.call(fiber, { kind: 'ListJobs' });
    // One try per scope per scan, in submission order: a scope found Busy, or held by an earlier
    // job's attempt, stays busy for the rest of this scan (a later job does not overtake it).
    const busy = new Set<string>();
    for (const row of listed?.jobs ?? []) {
      const op = jobs.payload(row.jobId);
      if (op === undefined || busy.has(row.scope)) continue;
      if (!due(sim, row)) {
        busy.add(row.scope);
        continue;
      }
      const guard = await standing();
      if (guard === null) return;
      // Looked at just before the dispatch is sent: the maintenance state stops new work (§306).
      if (authority.schedulingPaused?.(node) === true) break;
      const outcome = await dispatch(sim, authority, jobs, fiber, row, op, guard);
      if (outcome === 'blocked') await reopen(sim, fiber, row.scope, jobs.takenOn(row.scope));
      if (outcome === 'stop') return;
      if (outcome !== 'leased') busy.add(row.scope);
    }
    if ((await standing()) === null) return;
    await sim.sleepLocal(fiber, authority.tickMs);
  }
}

/**
 * Whether a scan dispatches the job now: an eligible one, and a leased one whose attempt's lease
 * the store no longer holds live (the attempt died with its process, or a recovery invalidated
 * it). A broken leader trusts a leased row and never takes the job back.
 */
function due(sim: Sim, row: ListedJob): boolean {
  if (row.status === 'eligible') return true;
  return !row.attemptLive && sim.policy.reclaimOnLead;
}

/** Dispatches the job under the guard; 'stop' when the role must stop. */
async function dispatch(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, row: JobRow, op: OpSpec, guard: RoleGuard): Promise<'leased' | 'busy' | 'blocked' | 'stop'> {
  const node = fiber.node;
  const base = { kind: 'DispatchJob' as const, jobId: row.jobId, holder: node.proc, ttlMs: op.ttlMs };
  const sent = monoNow(sim, node);
  const reply = await sim.call(fiber, authority.sendGuards ? { ...base, guard: wireGuard(guard) } : base);
  if (reply?.kind === 'JobDispatched') {
    const { lease, job } = reply;
    // The attempt's local window (read only where renewals confirm without extending).
    extendWindow(sim, lease, sent);
    authority.dispatched?.(node, op.scope, job.jobId);
    sim.spawn(node, `${node.proc}:a${authority.nextAttempt()}`, (attemptFiber) => runAttempt(sim, authority, jobs, attemptFiber, job, op, lease));
    return 'leased';
  }
  if (reply?.kind === 'Fenced') {
    authority.fenced(node);
    return 'stop';
  }
  return reply?.kind === 'Rejected' && reply.reason === 'blocked-for-reconciliation' ? 'blocked' : 'busy';
}

/**
 * A failover or restore left the scope blocked (000 §275): the leader reconciles with the provider
 * first, asking it about the effect of every job taken on the scope (the restored rows may have
 * lost a job whose attempt was cut off mid-effect: the provider's record names it), and only then
 * reopens the scope. What it learns needs no action here: every attempt inspects before its effect.
 */
async function reopen(sim: Sim, fiber: Fiber, scope: string, jobIds: ReadonlyArray<string>): Promise<void> {
  for (const jobId of jobIds) await sim.inspect(fiber, effectIdOf(jobId));
  await sim.call(fiber, { kind: 'ReconcileScope', scope, actor: fiber.node.proc });
}

/** One job attempt under its lease: the protected write, the work, the external effect, finish, release. */
async function runAttempt(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, job: JobRow, op: OpSpec, lease: Lease): Promise<void> {
  const node = fiber.node;
  const end = { jobId: job.jobId, token: lease.token };
  const release = { kind: 'Release' as const, scope: lease.scope, holder: lease.holder, token: lease.token };
  const giveBack = async (): Promise<void> => {
    await sim.call(fiber, { kind: 'ReturnJob', ...end });
    await sim.call(fiber, release);
  };
  // A scheduled job writes first and then works; a coordinator prepares first and promotes last
  // (§78–§79): its guarded write comes after the work, when its role may have moved on.
  const promotes = authority.role !== 'scheduler';
  if (promotes) await sim.sleepLocal(fiber, op.workMs);
  if (!(await write(sim, authority, jobs, fiber, op, lease))) {
    await giveBack();
    return;
  }
  if (!promotes) await sim.sleepLocal(fiber, op.workMs);
  // A broken scheduler ties its attempts to its role: once the leader lost it, they give up.
  if (!sim.policy.attemptsOutliveRole && authority.guard(node) === null) {
    await giveBack();
    return;
  }
  const intentId = effectIdOf(op.id);
  // Whether an earlier attempt made the effect is not known from the rows alone (it may have died
  // in its work, or a restore may have taken its FinishJob back): the provider is inspected before
  // any effect (000 §64, §275; seed 001 §88).
  const applied = await sim.inspect(fiber, intentId);
  // The job's artifact comes from the artifact store, by digest, before its effect (001 §4, §278):
  // while the store is out, the job goes back for a later attempt.
  if (!applied && authority.artifacts && !(await authority.artifacts.fetch(fiber, job.jobId, intentId)) && sim.policy.effectsNeedArtifact) {
    await giveBack();
    return;
  }
  // The lease is confirmed right before the effect (000 §157–§160): the attempt's node may have
  // paused, or the write's reply sat in the network, past the lease's expiry. A lost lease means
  // no effect; the job goes back to the table for a later attempt under a new lease.
  if (!applied && !(await confirm(sim, fiber, { lease, lost: false, released: false }))) {
    await giveBack();
    return;
  }
  if (!applied) {
    await sim.effect(
      fiber,
      { intentId, scope: op.scope, token: lease.token, holder: node.proc, operation: op.operation, retrySafety: op.retrySafety, fencing: op.fencing && sim.policy.sendFencingToken },
      job.attempts,
    );
  }
  const finished = await sim.call(fiber, { kind: 'FinishJob', ...end });
  if (finished?.kind === 'JobFinished') jobs.finishedBy(finished.job, lease.token);
  await sim.call(fiber, release);
}

/**
 * The protected write. A scheduled job attempt writes under its lease alone (§76–§77); a release
 * or deployment coordinator's promotion also carries its role guard (§94) and does not start
 * without one (§78–§79).
 */
async function write(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, op: OpSpec, lease: Lease): Promise<boolean> {
  const node = fiber.node;
  let guard: MutateCommand['guard'];
  if (authority.role !== 'scheduler') {
    const held = authority.guard(node);
    if (held === null) return false;
    guard = authority.sendGuards ? wireGuard(held) : undefined;
  }
  const key = `${op.scope}/${op.aggregate}`;
  for (let round = 0; round < 2; round++) {
    const base = { kind: 'Mutate' as const, scope: op.scope, aggregate: op.aggregate, holder: lease.holder, token: lease.token, expectedVersion: jobs.versions.get(key) ?? 0 };
    const reply = await sim.call(fiber, guard === undefined ? base : { ...base, guard });
    if (reply === null) return false;
    if (reply.kind === 'Accepted') {
      jobs.versions.set(key, reply.version);
      return true;
    }
    if (reply.kind === 'Fenced') {
      authority.fenced(node);
      return false;
    }
    if (reply.kind !== 'StaleVersion') return false;
    jobs.versions.set(key, reply.currentVersion);
  }
  return false;
}

/** The id of a job's external effect: the same for every attempt, so the provider can be asked whether it happened. */
function effectIdOf(jobId: string): string {
  return `${jobId}/e`;
}
