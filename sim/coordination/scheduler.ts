// The business layer under coordination (seed 001 §36–§41, §83–§85, §93–§96): the leader's
// scheduler loop and the job attempts it starts. The loop holds a role guard, never a flag
// (§296–§303): it writes its epoch to the store first (AdvanceRoleEpoch), rebuilds its queue from
// the eligible-jobs table rather than from memory (§84–§85), and creates every lease with the
// guard. A Fenced answer stops the role at once (§96). Attempts already running keep going under
// their database leases when leadership is lost (§76–§77); a release or deployment coordinator's
// promotion also carries the guard (§94) and is blocked without one (§78–§79).

import type { MutateCommand } from '../../model/commands.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import type { Lease } from '../../model/outcomes.ts';
import { wireGuard, type RoleGuard } from '../../model/role-guard.ts';
import type { Fiber, Node, Sim } from '../engine.ts';
import { confirm } from '../lease-protocol.ts';
import type { HistoryRecorder } from '../history-recorder.ts';
import type { OpSpec } from '../plan.ts';

/** What the scheduler may ask of the coordination service. */
export interface RoleAuthority {
  readonly role: CoordinatedRole;
  /** The guard this node's current process holds, or null when it holds no role. */
  guard(node: Node): RoleGuard | null;
  /** The node's current process still leads under `epoch`, though its guard may be withheld for now (check-quorum). */
  leads(node: Node, epoch: number): boolean;
  /** A job's lease was created under the role (message-level consensus may act on it). */
  dispatched?(node: Node, scope: string): void;
  /** The store answered Fenced: stop the role now and refresh the cluster view (§96). */
  fenced(node: Node): void;
  /** Send guards with role mutations (the correct protocol), or act on "holds a role" alone. */
  readonly sendGuards: boolean;
  readonly tickMs: number;
  nextAttempt(): number;
}

type JobStatus = 'eligible' | 'dispatching' | 'leased' | 'done';

interface Job {
  readonly op: OpSpec;
  status: JobStatus;
  /** The process that is creating its lease, while `dispatching`. */
  dispatcher: string | null;
  /** The token of the job's latest attempt (0: none yet): only that attempt may hand the job back. */
  attemptToken: number;
  /** Attempts dispatched so far: an attempt after the first inspects the effect before making it. */
  attempts: number;
  /** When a leader last dispatched or probed the job (its local clock): a leased job is probed once per TTL. */
  checkedAtLocal: number;
}

/**
 * The eligible-jobs table. In production it is a PostgreSQL table; here it stands for that
 * durable state, which every leader reads and no leader keeps only in memory (§84). Each job is
 * a `job` operation in the history, of its own process: invoked when submitted, ok when an
 * attempt finished it, fail when the run ended first (the `jobs-complete` invariant).
 */
export class JobTable {
  private readonly jobs: Job[] = [];
  /** Aggregate versions last seen (a cache: StaleVersion corrects it). */
  readonly versions = new Map<string, number>();

  constructor(private readonly history: HistoryRecorder) {}

  /** Told of each job event the table records (submitted, done): the agents' event stream (agents.ts). */
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  submit(op: OpSpec, now: number): void {
    this.jobs.push({ op, status: 'eligible', dispatcher: null, attemptToken: 0, attempts: 0, checkedAtLocal: 0 });
    this.history.op(now, jobProcess(op), 'invoke', 'job', { jobId: op.id, scope: op.scope });
    this.listener?.();
  }

  /** The jobs an attempt has finished: the first attempt to finish one records it. */
  private readonly finished = new Set<Job>();

  /** An attempt finished the job (a later attempt of a job already finished records nothing more). */
  done(job: Job, now: number, token: number): void {
    job.status = 'done';
    if (this.finished.has(job)) return;
    this.finished.add(job);
    this.history.op(now, jobProcess(job.op), 'ok', 'job', { jobId: job.op.id, token });
    this.listener?.();
  }

  finish(endMs: number): void {
    for (const job of this.jobs) if (!this.finished.has(job)) this.history.op(endMs, jobProcess(job.op), 'fail', 'job', { jobId: job.op.id, unfinished: job.status });
  }

  /**
   * The jobs a leader's scan tries to dispatch at local time `nowLocal`: eligible ones, and leased
   * ones whose attempt may have died with its process, at most once per TTL. For a leased job the
   * dispatch's Acquire is the check: it is Busy while the attempt's lease lives, and granted only
   * once that lease is gone (§84–§88).
   */
  dispatchable(nowLocal: number): ReadonlyArray<Job> {
    return this.jobs.filter((job) => job.status === 'eligible' || (job.status === 'leased' && nowLocal - job.checkedAtLocal >= job.op.ttlMs));
  }

  /** A new leader's reconciliation (§88): dispatches another process left unfinished are eligible again. */
  reclaim(leader: string, enabled: boolean): void {
    if (!enabled) return;
    for (const job of this.jobs) {
      if (job.status !== 'dispatching' || job.dispatcher === leader) continue;
      job.status = 'eligible';
      job.dispatcher = null;
    }
  }
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
  jobs.reclaim(node.proc, sim.policy.reclaimOnLead);
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
    // One try per scope per scan: a scope found Busy stays busy for the rest of this scan.
    const busy = new Set<string>();
    for (const job of jobs.dispatchable(sim.local(node))) {
      // Another leader may have taken it while this loop awaited the store.
      if ((job.status !== 'eligible' && job.status !== 'leased') || busy.has(job.op.scope)) continue;
      const guard = await standing();
      if (guard === null) return;
      const outcome = await dispatch(sim, authority, jobs, fiber, job, guard);
      if (outcome === 'stop') return;
      if (outcome === 'busy') busy.add(job.op.scope);
    }
    if ((await standing()) === null) return;
    await sim.sleepLocal(fiber, authority.tickMs);
  }
}

/** Creates the job's lease under the guard; 'stop' when the role must stop. */
async function dispatch(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, job: Job, guard: RoleGuard): Promise<'leased' | 'busy' | 'stop'> {
  const node = fiber.node;
  const op = job.op;
  const before = job.status;
  job.checkedAtLocal = sim.local(node);
  job.status = 'dispatching';
  job.dispatcher = node.proc;
  const base = { kind: 'Acquire' as const, scope: op.scope, holder: node.proc, ttlMs: op.ttlMs };
  const reply = await sim.call(fiber, authority.sendGuards ? { ...base, guard: wireGuard(guard) } : base);
  if (reply?.kind === 'Acquired') {
    // The lease is authoritative whoever reclaimed the job meanwhile: the attempt runs under it.
    job.status = 'leased';
    job.dispatcher = null;
    job.attemptToken = reply.lease.token;
    job.attempts += 1;
    const lease = reply.lease;
    authority.dispatched?.(node, op.scope);
    sim.spawn(node, `${node.proc}:a${authority.nextAttempt()}`, (attemptFiber) => runAttempt(sim, authority, jobs, attemptFiber, job, lease));
    return 'leased';
  }
  // Not dispatched: the job is as it was (a leased job's attempt still holds the scope).
  if (job.dispatcher === node.proc) {
    job.status = before;
    job.dispatcher = null;
  }
  if (reply?.kind === 'Fenced') {
    authority.fenced(node);
    return 'stop';
  }
  return 'busy';
}

/** One job attempt under its lease: the protected write, the work, the external effect, release. */
async function runAttempt(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, job: Job, lease: Lease): Promise<void> {
  const node = fiber.node;
  const op = job.op;
  if (!(await write(sim, authority, jobs, fiber, op, lease))) {
    await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder: lease.holder, token: lease.token });
    handBack(job, lease);
    return;
  }
  await sim.sleepLocal(fiber, op.workMs);
  const intentId = `${op.id}/e`;
  // An earlier attempt died somewhere in its work: whether its effect happened is unknown, so it
  // is inspected before any new one (000 §64; seed 001 §88).
  const attempt = job.attempts;
  const applied = attempt > 1 && (await sim.inspect(fiber, intentId));
  // The lease is confirmed right before the effect (000 §157–§160): the attempt's node may have
  // paused, or the write's reply sat in the network, past the lease's expiry. A lost lease means
  // no effect; the job goes back to the table for a later attempt under a new lease.
  if (!applied && !(await confirm(sim, fiber, { lease, lost: false, released: false }))) {
    await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder: lease.holder, token: lease.token });
    handBack(job, lease);
    return;
  }
  if (!applied) {
    await sim.effect(
      fiber,
      { intentId, scope: op.scope, token: lease.token, holder: node.proc, operation: op.operation, retrySafety: op.retrySafety, fencing: op.fencing && sim.policy.sendFencingToken },
      attempt,
    );
  }
  await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder: lease.holder, token: lease.token });
  jobs.done(job, sim.now, lease.token);
}

/** A failed attempt gives the job back to the table, unless a newer attempt has taken it since. */
function handBack(job: Job, lease: Lease): void {
  if (job.attemptToken === lease.token && job.status === 'leased') job.status = 'eligible';
}

function jobProcess(op: OpSpec): string {
  return `job:${op.id}`;
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
