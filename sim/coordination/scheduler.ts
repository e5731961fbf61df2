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
import type { OpSpec } from '../plan.ts';

/** What the scheduler may ask of the coordination service. */
export interface RoleAuthority {
  readonly role: CoordinatedRole;
  /** The guard this node's current process holds, or null when it holds no role. */
  guard(node: Node): RoleGuard | null;
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
}

/**
 * The eligible-jobs table. In production it is a PostgreSQL table; here it stands for that
 * durable state, which every leader reads and no leader keeps only in memory (§84).
 */
export class JobTable {
  private readonly jobs: Job[] = [];
  /** Aggregate versions last seen (a cache: StaleVersion corrects it). */
  readonly versions = new Map<string, number>();

  submit(op: OpSpec): void {
    this.jobs.push({ op, status: 'eligible', dispatcher: null });
  }

  eligible(): ReadonlyArray<Job> {
    return this.jobs.filter((job) => job.status === 'eligible');
  }

  /** A new leader's reconciliation (§88): dispatches another process left unfinished are eligible again. */
  reclaim(leader: string): void {
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
  jobs.reclaim(node.proc);
  // The loop serves the epoch it started under: once the node holds no guard, or a newer one
  // (it lost and won again, and a newer loop started), this loop ends.
  const current = (): RoleGuard | null => {
    const guard = authority.guard(node);
    return guard !== null && guard.epoch === first.epoch ? guard : null;
  };
  for (;;) {
    // One try per scope per scan: a scope found Busy stays busy for the rest of this scan.
    const busy = new Set<string>();
    for (const job of jobs.eligible()) {
      // Another leader may have taken it while this loop awaited the store.
      if (job.status !== 'eligible' || busy.has(job.op.scope)) continue;
      const guard = current();
      if (guard === null) return;
      const outcome = await dispatch(sim, authority, jobs, fiber, job, guard);
      if (outcome === 'stop') return;
      if (outcome === 'busy') busy.add(job.op.scope);
    }
    if (current() === null) return;
    await sim.sleepLocal(fiber, authority.tickMs);
  }
}

/** Creates the job's lease under the guard; 'stop' when the role must stop. */
async function dispatch(sim: Sim, authority: RoleAuthority, jobs: JobTable, fiber: Fiber, job: Job, guard: RoleGuard): Promise<'leased' | 'busy' | 'stop'> {
  const node = fiber.node;
  const op = job.op;
  job.status = 'dispatching';
  job.dispatcher = node.proc;
  const base = { kind: 'Acquire' as const, scope: op.scope, holder: node.proc, ttlMs: op.ttlMs };
  const reply = await sim.call(fiber, authority.sendGuards ? { ...base, guard: wireGuard(guard) } : base);
  if (reply?.kind === 'Acquired') {
    // The lease is authoritative whoever reclaimed the job meanwhile: the attempt runs under it.
    job.status = 'leased';
    job.dispatcher = null;
    const lease = reply.lease;
    sim.spawn(node, `${node.proc}:a${authority.nextAttempt()}`, (attemptFiber) => runAttempt(sim, authority, jobs, attemptFiber, job, lease));
    return 'leased';
  }
  if (job.dispatcher === node.proc) {
    job.status = 'eligible';
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
    job.status = 'eligible';
    return;
  }
  await sim.sleepLocal(fiber, op.workMs);
  // The lease is confirmed right before the effect (000 §157–§160): the attempt's node may have
  // paused, or the write's reply sat in the network, past the lease's expiry. A lost lease means
  // no effect; the job goes back to the table for a later attempt under a new lease.
  if (!(await confirm(sim, fiber, { lease, lost: false, released: false }))) {
    await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder: lease.holder, token: lease.token });
    job.status = 'eligible';
    return;
  }
  await sim.effect(
    fiber,
    { intentId: `${op.id}/e`, scope: op.scope, token: lease.token, holder: node.proc, operation: op.operation, retrySafety: op.retrySafety, fencing: op.fencing && sim.policy.sendFencingToken },
    1,
  );
  await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder: lease.holder, token: lease.token });
  job.status = 'done';
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
