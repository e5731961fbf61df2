// One stress client: a loop of small random workflows (hold a lease and write under it, take
// permits, reserve, begin and complete an idempotent operation) with random pauses, until the
// deadline. Its choices come from its own seeded stream; what the store answers, and when, is
// real. Every command goes through `send`, which records it in the history with real times.

import type { Command } from '../../model/commands.ts';
import type { Outcome, OutcomeOf } from '../../model/outcomes.ts';
import { OutcomeUnknownError, StoreUnavailableError, type Store } from '../../adapters/port.ts';
import type { Stream } from '../../sim/prng.ts';
import { wallNow, type HistoryRecorder } from './history.ts';
import { Aim } from './timing.ts';
import type { StressWorld } from './world.ts';

/** Thrown out of a workflow when a command did not get an outcome: the workflow stops there. */
class NoOutcome extends Error {}

export interface StressClient {
  readonly name: string;
  readonly store: Store;
  readonly random: Stream;
}

const pause = (ms: number): Promise<void> => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms)));

export async function runClient(client: StressClient, world: StressWorld, recorder: HistoryRecorder, startedAt: number, deadline: number): Promise<void> {
  const { random, name } = client;
  const aim = new Aim(random);
  const send = async <C extends Command>(command: C): Promise<OutcomeOf<C>> => {
    const op = recorder.invoke(name, command);
    try {
      const outcome = await client.store.execute(command);
      recorder.complete(op, 'ok', outcome as Outcome);
      aim.took(op.completedAt - op.invokedAt);
      if (outcome.kind === 'Acquired') aim.saw(outcome.lease.acquiredAt, op.invokedAt, op.completedAt);
      return outcome;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const status = error instanceof StoreUnavailableError ? 'fail' : error instanceof OutcomeUnknownError ? 'unknown' : 'error';
      recorder.complete(op, status, undefined, message);
      throw new NoOutcome(message);
    }
  };
  const ttl = (): number => random.int(world.ttlMs.min, world.ttlMs.max);
  /** The aggregate version this client last saw, per scope: its writes mostly expect the current one. */
  const versions = new Map<string, number>();
  let serial = 0;

  const holdLease = async (): Promise<void> => {
    const scope = random.pick(world.scopes);
    const leaseTtl = ttl();
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
    if (random.chance(50)) {
      await (random.chance(60) ? untilEnd() : pause(random.int(0, leaseTtl / 2)));
      const renewed = await send({ kind: 'Renew', scope, holder: name, expectedToken: token, ttlMs: ttl() });
      if (renewed.kind !== 'Renewed') return;
      expiresAt = renewed.lease.expiresAt;
    }
    // Some holders stall past their lease before writing (§25: "A wakes up"): a store must refuse
    // the write once a newer token exists.
    if (random.chance(10)) await pause(Math.min(aim.waitUntil(expiresAt) + random.int(1, 20), world.ttlMs.max * 2));
    const expectedVersion = versions.get(scope) ?? 0;
    const wrote = await send({ kind: 'Mutate', scope, aggregate: world.aggregate, holder: name, token, expectedVersion });
    if (wrote.kind === 'Accepted') versions.set(scope, wrote.version);
    if (wrote.kind === 'StaleVersion') versions.set(scope, wrote.currentVersion);
    if (!random.chance(85)) return;
    await (random.chance(50) ? untilEnd() : awhile());
    await send({ kind: 'Release', scope, holder: name, token });
  };

  const holdTwo = async (): Promise<void> => {
    const first = random.pick(world.scopes);
    const second = world.scopes[(world.scopes.indexOf(first) + random.int(1, world.scopes.length - 1)) % world.scopes.length]!;
    const got = await send({ kind: 'AcquireAll', scopes: [first, second], holder: name, ttlMs: ttl() });
    if (got.kind !== 'AcquiredAll') return pause(random.int(0, 5));
    await pause(random.int(0, world.ttlMs.min));
    for (const lease of got.leases) await send({ kind: 'Release', scope: lease.scope, holder: name, token: lease.token });
  };

  const takePermit = async (): Promise<void> => {
    const semaphore = random.pick(world.semaphores);
    const permitId = `${name}-p${++serial}`;
    const got = await send({ kind: 'AcquirePermit', scope: semaphore, permitId, holder: name, units: random.int(1, 2), ttlMs: ttl() });
    if (got.kind !== 'Granted') return pause(random.int(0, 5));
    await pause(random.int(0, world.ttlMs.min));
    if (random.chance(60)) await send({ kind: 'ReleasePermit', scope: semaphore, permitId });
  };

  const reserve = async (): Promise<void> => {
    const reservationId = `${name}-r${++serial}`;
    const got = await send({ kind: 'Reserve', scope: random.pick(world.semaphores), reservationId, owner: name, units: 1, ttlMs: ttl() });
    if (got.kind !== 'Reserved') return;
    await pause(random.int(0, world.ttlMs.min));
    if (random.chance(50)) await send({ kind: 'ReleaseReservation', reservationId });
  };

  const idempotent = async (): Promise<void> => {
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
  };

  while (wallNow() < deadline) {
    const dice = random.int(1, 100);
    try {
      if (dice <= 50) await holdLease();
      else if (dice <= 55) await holdTwo();
      else if (dice <= 70) await takePermit();
      else if (dice <= 75) await reserve();
      else await idempotent();
    } catch (error) {
      if (!(error instanceof NoOutcome)) throw error;
      // The store gave no outcome: this workflow ends here; an unavailable store gets a moment.
      await pause(random.int(1, 10));
    }
    await pause(random.int(0, 3));
  }
}
