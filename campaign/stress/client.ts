// One stress client: a loop of small random workflows (hold a lease and write under it, take
// permits, reserve, begin and complete an idempotent operation; and on side scopes, the other
// kinds of the port: side-flows.ts) with random pauses, until the deadline. Its choices come from its own seeded stream; what the store answers, and when, is
// real. Every command goes through `send`, which records it in the history with real times.

import type { Command } from '../../model/commands.ts';
import type { Outcome, OutcomeOf } from '../../model/outcomes.ts';
import { OutcomeUnknownError, StoreUnavailableError, type Store } from '../../adapters/port.ts';
import { contractBreach } from '../../sim/port-contract.ts';
import type { Stream } from '../../sim/prng.ts';
import { wallNow, type HistoryRecorder } from './history.ts';
import { Aim } from './timing.ts';
import { reservationSteps, SIDE_NEEDS, sideJob, sideOperator, sideTour } from './side-flows.ts';
import type { StressWorld } from './world.ts';

/** The client that runs the opening tour of every kind (side-flows.ts sideTour). */
const FIRST_CLIENT = 'c0';

/** Thrown out of a workflow when a command did not get an outcome: the workflow stops there. */
class NoOutcome extends Error {}

export interface StressClient {
  readonly name: string;
  readonly store: Store;
  readonly random: Stream;
}

const pause = (ms: number): Promise<void> => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms)));

/** The kinds a store declares (absent: every kind of the port). */
export function supportsOf(store: Store): (kind: Command['kind']) => boolean {
  const declared = store.capabilities?.commands;
  return (kind) => declared === undefined || declared.includes(kind);
}

interface Workflow {
  readonly weight: number;
  /** The kinds it cannot do without; the optional ones it skips when the store lacks them. */
  readonly needs: ReadonlyArray<Command['kind']>;
  readonly run: () => Promise<void>;
}

/** Whether a store has the commands of at least one workflow (a lease store has: it needs Acquire alone). */
export function canStress(supports: (kind: Command['kind']) => boolean): boolean {
  return WORKFLOW_NEEDS.some((needs) => needs.every(supports));
}

const WORKFLOW_NEEDS: ReadonlyArray<ReadonlyArray<Command['kind']>> = [['Acquire'], ['AcquireAll', 'Release'], ['DefineCapacity', 'AcquirePermit'], ['DefineCapacity', 'Reserve'], ['IdempotencyBegin', 'IdempotencyComplete']];

export async function runClient(client: StressClient, world: StressWorld, recorder: HistoryRecorder, startedAt: number, deadline: number): Promise<void> {
  const { random, name } = client;
  const aim = new Aim(random);
  const supports = supportsOf(client.store);
  const send = async <C extends Command>(command: C): Promise<OutcomeOf<C>> => {
    const op = recorder.invoke(name, command);
    let outcome: OutcomeOf<C>;
    try {
      outcome = await client.store.execute(command);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status = error instanceof StoreUnavailableError ? 'fail' : error instanceof OutcomeUnknownError ? 'unknown' : 'error';
      recorder.complete(op, status, undefined, message);
      throw new NoOutcome(message);
    }
    // An answer the port does not allow is no outcome: a finding, never read by a checker.
    const breach = contractBreach(command, outcome);
    if (breach !== null) {
      recorder.complete(op, 'error', undefined, breach);
      op.breach = true;
      throw new NoOutcome(breach);
    }
    recorder.complete(op, 'ok', outcome as Outcome);
    aim.took(op.completedAt - op.invokedAt);
    if (outcome.kind === 'Acquired') aim.saw(outcome.lease.acquiredAt, op.invokedAt, op.completedAt);
    return outcome;
  };
  const ctx: FlowContext = { random, name, aim, world, startedAt, send, supports, versions: new Map(), serial: { next: 0 } };
  const flows = workflowsOf(ctx);
  const total = flows.reduce((n, f) => n + f.weight, 0);
  if (name === FIRST_CLIENT) {
    try {
      await sideTour(ctx);
    } catch (error) {
      if (!(error instanceof NoOutcome)) throw error;
    }
  }
  while (wallNow() < deadline) {
    let dice = random.int(1, total);
    const flow = flows.find((f) => (dice -= f.weight) <= 0)!;
    try {
      await flow.run();
    } catch (error) {
      if (!(error instanceof NoOutcome)) throw error;
      // The store gave no outcome: this workflow ends here; an unavailable store gets a moment.
      await pause(random.int(1, 10));
    }
    await pause(random.int(0, 3));
  }
}

interface FlowContext {
  readonly random: Stream;
  readonly name: string;
  readonly aim: Aim;
  readonly world: StressWorld;
  readonly startedAt: number;
  readonly send: <C extends Command>(command: C) => Promise<OutcomeOf<C>>;
  readonly supports: (kind: Command['kind']) => boolean;
  /** The aggregate version this client last saw, per scope: its writes mostly expect the current one. */
  readonly versions: Map<string, number>;
  /** For the client's permit and reservation ids. */
  readonly serial: { next: number };
}

/** The workflows this client may run on its store: those whose needed commands the store has. */
function workflowsOf(ctx: FlowContext): Workflow[] {
  const all: Workflow[] = [
    { weight: 50, needs: WORKFLOW_NEEDS[0]!, run: () => holdLease(ctx) },
    { weight: 5, needs: WORKFLOW_NEEDS[1]!, run: () => holdTwo(ctx) },
    { weight: 15, needs: WORKFLOW_NEEDS[2]!, run: () => takePermit(ctx) },
    { weight: 5, needs: WORKFLOW_NEEDS[3]!, run: () => reserve(ctx) },
    { weight: 25, needs: WORKFLOW_NEEDS[4]!, run: () => idempotent(ctx) },
    // The other kinds, on side scopes (side-flows.ts).
    { weight: 8, needs: SIDE_NEEDS, run: () => sideJob(ctx) },
    { weight: 2, needs: [], run: () => sideOperator(ctx) },
  ];
  return all.filter((flow) => flow.needs.every(ctx.supports));
}

const ttlOf = ({ random, world }: FlowContext): number => random.int(world.ttlMs.min, world.ttlMs.max);

async function holdLease(ctx: FlowContext): Promise<void> {
  const { random, name, aim, world, send, supports, versions } = ctx;
  const scope = random.pick(world.scopes);
  const leaseTtl = ttlOf(ctx);
  let got = await send({ kind: 'Acquire', scope, holder: name, ttlMs: leaseTtl });
  // A contender that finds the scope busy often waits for the holder's lease to end and tries
  // once more right then, as a waiting client would.
  if (got.kind === 'Busy' && random.chance(60)) {
    await pause(Math.min(aim.waitUntil(got.expiresAt) + random.int(0, 3), world.ttlMs.max));
    got = await send({ kind: 'Acquire', scope, holder: name, ttlMs: leaseTtl });
  }
  if (got.kind !== 'Acquired') return pause(random.int(0, 5));
  const token = got.lease.token;
  // Some renewals and releases are sent just before the lease ends (where a store's check and
  // its write can be split by the expiry), the others at any time up to the whole ttl, so that
  // some land after it.
  let expiresAt = got.lease.expiresAt;
  const untilEnd = (): Promise<void> => pause(aim.waitBefore(expiresAt));
  const awhile = (): Promise<void> => pause(random.int(0, leaseTtl));
  if (supports('Renew') && random.chance(50)) {
    await (random.chance(60) ? untilEnd() : pause(random.int(0, leaseTtl / 2)));
    const renewed = await send({ kind: 'Renew', scope, holder: name, expectedToken: token, ttlMs: ttlOf(ctx) });
    if (renewed.kind !== 'Renewed') return;
    expiresAt = renewed.lease.expiresAt;
  }
  // Some holders stall past their lease before writing (§25: "A wakes up"): a store must refuse
  // the write once a newer token exists.
  if (random.chance(10)) await pause(Math.min(aim.waitUntil(expiresAt) + random.int(1, 20), world.ttlMs.max * 2));
  if (supports('Mutate')) {
    const wrote = await send({ kind: 'Mutate', scope, aggregate: world.aggregate, holder: name, token, expectedVersion: versions.get(scope) ?? 0 });
    if (wrote.kind === 'Accepted') versions.set(scope, wrote.version);
    if (wrote.kind === 'StaleVersion') versions.set(scope, wrote.currentVersion);
  }
  if (!supports('Release') || !random.chance(85)) return;
  await (random.chance(50) ? untilEnd() : awhile());
  await send({ kind: 'Release', scope, holder: name, token });
}

async function holdTwo(ctx: FlowContext): Promise<void> {
  const { random, name, world, send } = ctx;
  const first = random.pick(world.scopes);
  const second = world.scopes[(world.scopes.indexOf(first) + random.int(1, world.scopes.length - 1)) % world.scopes.length]!;
  const got = await send({ kind: 'AcquireAll', scopes: [first, second], holder: name, ttlMs: ttlOf(ctx) });
  if (got.kind !== 'AcquiredAll') return pause(random.int(0, 5));
  await pause(random.int(0, world.ttlMs.min));
  for (const lease of got.leases) await send({ kind: 'Release', scope: lease.scope, holder: name, token: lease.token });
}

const nextSerial = (ctx: FlowContext): number => ++ctx.serial.next;

async function takePermit(ctx: FlowContext): Promise<void> {
  const { random, name, world, send, supports } = ctx;
  const semaphore = random.pick(world.semaphores);
  const permitId = `${name}-p${nextSerial(ctx)}`;
  const got = await send({ kind: 'AcquirePermit', scope: semaphore, permitId, holder: name, units: random.int(1, 2), ttlMs: ttlOf(ctx) });
  if (got.kind !== 'Granted') return pause(random.int(0, 5));
  await pause(random.int(0, world.ttlMs.min));
  if (supports('ReleasePermit') && random.chance(60)) await send({ kind: 'ReleasePermit', scope: semaphore, permitId });
}

async function reserve(ctx: FlowContext): Promise<void> {
  const { random, name, world, send } = ctx;
  const reservationId = `${name}-r${nextSerial(ctx)}`;
  const got = await send({ kind: 'Reserve', scope: random.pick(world.semaphores), reservationId, owner: name, units: 1, ttlMs: ttlOf(ctx) });
  if (got.kind !== 'Reserved') return;
  await pause(random.int(0, world.ttlMs.min));
  if (random.chance(50)) await reservationSteps(ctx, reservationId);
}

async function idempotent(ctx: FlowContext): Promise<void> {
  const { random, name, world, send, startedAt } = ctx;
  const period = Math.floor((wallNow() - startedAt) / world.keyPeriodMs);
  const ref = {
    tenant: world.tenant,
    operation: world.operation,
    subject: world.subject,
    key: `key-${period}-${random.int(1, world.keysAtOnce)}`,
    digest: random.chance(85) ? 'digest-a' : 'digest-b',
  };
  const begun = await send({ kind: 'IdempotencyBegin', ...ref, retentionMs: world.retentionMs, retryAfterTerminal: false });
  if (begun.kind !== 'New') return;
  await pause(random.int(0, 10));
  const outcome = random.chance(90) ? { kind: 'Succeeded' as const, response: `by ${name}` } : { kind: 'FailedTerminal' as const, error: `by ${name}` };
  await send({ kind: 'IdempotencyComplete', ...ref, outcome });
}
