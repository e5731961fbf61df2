// seed 000 §24–§53, §72–§74, §79–§114, §163–§168, §200–§213, §271–§276, §286, seed 001 §76–§77, §84–§85, §93–§94, seed 002: each store-level mutant breaks exactly its one rule, shown by a short command sequence (with the calling process and lifecycle events where the rule is about them) where it answers differently from the correct store.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant, mutantStoreFactory } from '../../mutants/index.ts';
import type { CallContext, Store, StoreFactory, StoreOptions } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { StoredOutcome } from '../../model/idempotency-outcome.ts';
import type { Outcome } from '../../model/outcomes.ts';

/** A manual store clock and a manual caller clock, set by each step of a script. */
interface Clocks {
  store: number;
  caller: number;
}

type Script = (run: (command: Command, at: number, callerAt?: number, call?: CallContext) => Promise<Outcome>, store: Store) => Promise<Outcome>;

async function play(factory: StoreFactory, script: Script): Promise<Outcome> {
  const clocks: Clocks = { store: 0, caller: 0 };
  const options: StoreOptions = { time: { now: () => clocks.store }, callerClock: { now: () => clocks.caller } };
  const store = await factory(options);
  try {
    return await script(async (command, at, callerAt = at, call) => {
      clocks.store = at;
      clocks.caller = callerAt;
      return call === undefined ? store.execute(command) : store.execute(command, call);
    }, store);
  } finally {
    await store.close();
  }
}

function mutantFactory(name: string): StoreFactory {
  const mutant = findMutant(name);
  expect(mutant?.wraps, `${name} is a store-level mutant`).toBeDefined();
  return mutantStoreFactory(mutant!, createMemoryStore);
}

// The commands of the scripts, on one scope (`env:prod`) unless they name another.
const acquire = (holder: string, ttlMs = 1_000): Command => ({ kind: 'Acquire', scope: 'env:prod', holder, ttlMs });
const asWaiter = (holder: string, waiterId: string): Command => ({ kind: 'Acquire', scope: 'env:prod', holder, ttlMs: 1_000, waiterId });
const enqueue = (waiterId: string, holder: string, priority: number): Command => ({ kind: 'Enqueue', scope: 'env:prod', waiterId, holder, priority });
const renew = (holder: string, expectedToken: number): Command => ({ kind: 'Renew', scope: 'env:prod', holder, expectedToken, ttlMs: 1_000 });
const release = (holder: string, token: number): Command => ({ kind: 'Release', scope: 'env:prod', holder, token });
const forceRelease = (expectedToken: number): Command => ({ kind: 'ForceRelease', scope: 'env:prod', expectedToken, actor: 'ops', reason: 'stuck', privileged: true });
const mutate = (holder: string, token: number): Command => ({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder, token, expectedVersion: 0 });
const recover = (blockScopes: ReadonlyArray<string>): Command => ({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes });
const capacity = (scope: string, units: number): Command => ({ kind: 'DefineCapacity', scope, capacity: units });
const permit = (permitId: string, holder: string, units: number): Command => ({ kind: 'AcquirePermit', scope: 'sem:sign', permitId, holder, units, ttlMs: 1_000 });
const reserve = (reservationId: string, owner: string, ttlMs: number): Command => ({ kind: 'Reserve', scope: 'dev:pool', reservationId, owner, units: 1, ttlMs });
const KEY = { tenant: 't1', operation: 'api-create', subject: 's1', key: 'k1' } as const;
const begin = (digest: string, subject: string = KEY.subject): Command => ({ kind: 'IdempotencyBegin', ...KEY, subject, digest, retentionMs: 60_000, retryAfterTerminal: false });
const complete = (digest: string, outcome: StoredOutcome): Command => ({ kind: 'IdempotencyComplete', ...KEY, digest, outcome });

/** `a` holds the scope; its lease expires and `b` takes the scope; then `a`, stale, sends `command`. */
const afterTakeover = (command: Command): Script => async (run) => {
  await run(acquire('a'), 0);
  await run(acquire('b'), 1_500);
  return run(command, 1_600);
};

/** `a` holds the scope and sends `command` once its lease has expired, nobody having taken the scope. */
const afterExpiry = (command: Command): Script => async (run) => {
  await run(acquire('a'), 0);
  return run(command, 1_500);
};

/** `a` holds the scope and sends `command` while its lease is live. */
const whileHeld = (command: Command): Script => async (run) => {
  await run(acquire('a'), 0);
  return run(command, 10);
};

/** `a` reserves the one unit of a pool for `ttlMs`; then `command` is sent at `at`. */
const afterReserve = (ttlMs: number, command: Command, at: number): Script => async (run) => {
  await run(capacity('dev:pool', 1), 0);
  await run(reserve('r1', 'a', ttlMs), 0);
  return run(command, at);
};

/** A first request begins with digest `d1`; then `command` is sent. */
const afterBegin = (command: Command): Script => async (run) => {
  await run(begin('d1'), 0);
  return run(command, 10);
};

/** `a`'s lease is force released, and `b` acquires the scope. */
const forcedThenAcquired: Script = async (run) => {
  await run(acquire('a'), 0);
  await run(forceRelease(1), 10);
  return run(acquire('b'), 20);
};

/** A case where the correct store refuses `holder` (not the head of the queue) and the mutant lets it take the scope. */
function jumpsTheQueue(mutant: string, rule: string, holder: string, script: Script): RuleCase {
  return { mutant, rule, script, correct: { kind: 'Rejected', reason: 'not-head-of-queue' }, broken: { kind: 'Acquired', lease: { holder } } };
}

/** A case where a two-unit semaphore has `held` units taken: the correct store refuses `asked` more units, the mutant grants them. */
function overfills(mutant: string, rule: string, held: number, asked: number): RuleCase {
  return {
    mutant,
    rule,
    script: async (run) => {
      await run(capacity('sem:sign', 2), 0);
      await run(permit('p1', 'a', held), 0);
      return run(permit('p2', 'b', asked), 10);
    },
    correct: { kind: 'Busy', inUse: held, capacity: 2 },
    broken: { kind: 'Granted', permit: { permitId: 'p2', units: asked } },
  };
}

/** A case where the correct store fences `a`'s write (StaleFence, naming `currentToken`) and the mutant accepts it. */
function fencedWriteAccepted(mutant: string, rule: string, currentToken: number | null, script: Script): RuleCase {
  return { mutant, rule, script, correct: { kind: 'StaleFence', currentToken }, broken: { kind: 'Accepted', version: 1, token: 1 } };
}

interface RuleCase {
  readonly mutant: string;
  readonly rule: string;
  readonly script: Script;
  readonly correct: Record<string, unknown>;
  readonly broken: Record<string, unknown>;
}

const CASES: ReadonlyArray<RuleCase> = [
  fencedWriteAccepted('no-fencing-check', 'a stale holder’s write is accepted after a newer owner took the scope (§25)', 2, afterTakeover(mutate('a', 1))),
  {
    mutant: 'client-clock-expiry',
    rule: 'a caller whose clock runs ahead takes a lease that is still live in store time (§80–§82)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run(acquire('b'), 100, 5_000);
    },
    correct: { kind: 'Busy', holder: 'a', token: 1 },
    broken: { kind: 'Acquired' },
  },
  {
    mutant: 'renewal-without-epoch-check',
    rule: 'a renewal with an old token re-takes a scope another holder owns (§34)',
    script: afterTakeover(renew('a', 1)),
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'Renewed', lease: { scope: 'env:prod', holder: 'a', token: 1, acquiredAt: 1_600, expiresAt: 2_600 } },
  },
  {
    mutant: 'advisory-lock-only',
    rule: 'the next owner of a free scope gets token 1 again instead of a higher token (§24, §280)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(release('a', 1), 10);
      return run(acquire('b'), 20);
    },
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'key-only-force-release',
    rule: 'a force release aimed at an expired holder’s epoch destroys the newer holder’s lease (seed 002, §290)',
    script: afterTakeover(forceRelease(1)),
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'ForceReleased', tombstone: { holder: 'b', token: 2, cause: 'force-released' } },
  },
  {
    mutant: 'epoch-reset-after-restore',
    rule: 'after restoring an older image, tokens issued after the backup are issued again (§271–§274)',
    script: async (run, store) => {
      await run(acquire('a'), 0);
      const image = await store.snapshot!();
      await run(release('a', 1), 10);
      await run(acquire('b'), 20);
      await store.restore!(image);
      await run(recover([]), 30);
      return run(acquire('c'), 40);
    },
    correct: { kind: 'Acquired', lease: { holder: 'c', token: 1_000_000_001 } },
    broken: { kind: 'Acquired', lease: { holder: 'c', token: 2 } },
  },
  overfills('semaphore-off-by-one', 'a full semaphore admits one more unit (§93, §293)', 2, 1),
  overfills('capacity-checks-full-only', 'a request for two units is admitted with one unit left (§93, §293)', 1, 2),
  {
    mutant: 'lease-without-scheduler-epoch',
    rule: 'a lease is created under a scheduler epoch older than the one the store has seen (001 §93)',
    script: async (run) => {
      await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 }, 0);
      return run({ kind: 'Acquire', scope: 'env:prod', holder: 'a', ttlMs: 1_000, guard: { role: 'scheduler', epoch: 1 } }, 10);
    },
    correct: { kind: 'Fenced', role: 'scheduler', currentEpoch: 2 },
    broken: { kind: 'Acquired', lease: { holder: 'a', token: 1 } },
  },
  {
    mutant: 'reentrant-acquire',
    rule: 'the holder of the live lease is granted a second lease instead of Busy (Acquire step 4)',
    script: whileHeld(acquire('a')),
    correct: { kind: 'Busy', holder: 'a', token: 1 },
    broken: { kind: 'Acquired', lease: { holder: 'a', token: 2 } },
  },
  jumpsTheQueue('acquire-bypasses-queue', 'a caller without a waiter id takes a free scope while a waiter is queued (Acquire step 5, §86–§90)', 'c', async (run) => {
    await run(acquire('a'), 0);
    await run(enqueue('w1', 'b', 0), 10);
    return run(acquire('c'), 1_500);
  }),
  jumpsTheQueue('any-waiter-acquires', 'a queued waiter that is not the head takes the scope (Acquire step 5, §90)', 'c', async (run) => {
    await run(acquire('a'), 0);
    await run(enqueue('w1', 'b', 0), 10);
    await run(enqueue('w2', 'c', 0), 20);
    return run(asWaiter('c', 'w2'), 1_500);
  }),
  jumpsTheQueue('fifo-ignores-priority', 'the oldest waiter goes first although a later one has a higher priority (§91)', 'b', async (run) => {
    await run(acquire('a'), 0);
    await run(enqueue('w1', 'b', 0), 10);
    await run(enqueue('w2', 'c', 5), 20);
    return run(asWaiter('b', 'w1'), 1_500);
  }),
  jumpsTheQueue('priority-without-aging', 'a newcomer of higher priority goes before a waiter that has aged past it (§92)', 'c', async (run) => {
    await run(acquire('a', 10_000), 0);
    await run(enqueue('w1', 'b', 0), 10);
    await run(enqueue('w2', 'c', 2), 9_000);
    return run(asWaiter('c', 'w2'), 10_500);
  }),
  {
    mutant: 'release-ignores-token',
    rule: 'a late Release with an old token ends the successor’s lease (§33–§36, §114)',
    script: afterTakeover(release('a', 1)),
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'Released', token: 2 },
  },
  {
    mutant: 'handoff-keeps-token',
    rule: 'a handoff keeps the old token instead of issuing a new one (§113)',
    script: whileHeld({ kind: 'Handoff', scope: 'env:prod', holder: 'a', token: 1, newHolder: 'b', ttlMs: 1_000 }),
    correct: { kind: 'HandedOff', lease: { holder: 'b', token: 2 } },
    broken: { kind: 'HandedOff', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'force-release-lowers-token',
    rule: 'after a force release the next owner is issued the force-released token again (§203–§204)',
    script: forcedThenAcquired,
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 3 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'force-release-no-burn',
    rule: 'a force release burns no token: the next owner gets the removed token plus one (§203–§204)',
    script: forcedThenAcquired,
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 3 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
  },
  {
    mutant: 'mutate-ignores-version',
    rule: 'a write that expects an older version is accepted over the change it never saw (§66–§70)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(mutate('a', 1), 10);
      return run(mutate('a', 1), 20);
    },
    correct: { kind: 'StaleVersion', currentVersion: 1 },
    broken: { kind: 'Accepted', version: 2, token: 1 },
  },
  fencedWriteAccepted('mutate-ignores-expiry', 'a write under an expired lease is accepted while nobody replaced the row (§25–§31)', null, afterExpiry(mutate('a', 1))),
  {
    mutant: 'renew-revives-expired',
    rule: 'renewing an expired lease revives it instead of answering Expired (§31–§35)',
    script: afterExpiry(renew('a', 1)),
    correct: { kind: 'Expired' },
    broken: { kind: 'Renewed', lease: { holder: 'a', token: 1, expiresAt: 2_500 } },
  },
  fencedWriteAccepted('fence-by-aggregate-high-water', 'a stale holder writes after its successor was granted, before the successor wrote (§25–§30)', 2, afterTakeover(mutate('a', 1))),
  {
    mutant: 'mutate-without-role-guard',
    rule: 'a promotion under an older coordinator epoch than the store has seen is accepted (001 §94)',
    script: async (run) => {
      await run({ kind: 'AdvanceRoleEpoch', role: 'release-coordinator', epoch: 2 }, 0);
      await run(acquire('a'), 1);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'channel', holder: 'a', token: 1, expectedVersion: 0, guard: { role: 'release-coordinator', epoch: 1 } }, 10);
    },
    correct: { kind: 'Fenced', role: 'release-coordinator', currentEpoch: 2 },
    broken: { kind: 'Accepted', version: 1, token: 1 },
  },
  fencedWriteAccepted('recovery-keeps-leases', 'a lease live before the recovery epoch still accepts writes after it (§273)', null, async (run) => {
    await run(acquire('a'), 0);
    await run(recover([]), 10);
    return run(mutate('a', 1), 20);
  }),
  {
    mutant: 'recovery-skips-block',
    rule: 'a scope the recovery procedure names is not blocked: a new owner takes it before reconciliation (§237, §275)',
    script: async (run) => {
      await run(recover(['env:prod']), 0);
      return run(acquire('b'), 10);
    },
    correct: { kind: 'Rejected', reason: 'blocked-for-reconciliation' },
    broken: { kind: 'Acquired', lease: { holder: 'b' } },
  },
  {
    mutant: 'reservations-not-counted',
    rule: 'a second reservation of a one-unit pool is granted while the first holds it (§207)',
    script: afterReserve(1_000, reserve('r2', 'b', 1_000), 10),
    correct: { kind: 'Overbooked', inUse: 1, capacity: 1 },
    broken: { kind: 'Reserved', reservation: { reservationId: 'r2' } },
  },
  {
    mutant: 'expired-reservation-consumed',
    rule: 'an expired reservation is consumed (§37–§42)',
    script: afterReserve(100, { kind: 'ConsumeReservation', reservationId: 'r1' }, 200),
    correct: { kind: 'ReservationExpired' },
    broken: { kind: 'ReservationUpdated', reservation: { reservationId: 'r1', state: 'Consumed' } },
  },
  {
    mutant: 'digest-ignored',
    rule: 'another request reusing a key is answered from the first request’s record, not Conflict (§46–§47)',
    script: afterBegin(begin('d2')),
    correct: { kind: 'Conflict', existingDigest: 'd1' },
    broken: { kind: 'InProgress' },
  },
  {
    mutant: 'complete-ignores-digest',
    rule: 'a completion carrying another request’s digest is recorded on the key’s record, not Conflict (§46–§47)',
    script: afterBegin(complete('d2', { kind: 'Succeeded', response: 'r2' })),
    correct: { kind: 'Conflict', existingDigest: 'd1' },
    broken: { kind: 'Recorded' },
  },
  {
    mutant: 'idempotency-key-unscoped',
    rule: 'a request of another subject reusing a key finds the other subject’s record (§44–§45)',
    script: afterBegin(begin('d1', `${KEY.subject}-other`)),
    correct: { kind: 'New' },
    broken: { kind: 'InProgress' },
  },
  {
    mutant: 'unknown-begins-new',
    rule: 'a request on a record whose outcome is Unknown starts the operation anew (§52–§53)',
    script: async (run) => {
      await run(begin('d1'), 0);
      await run(complete('d1', { kind: 'Unknown' }), 10);
      return run(begin('d1'), 20);
    },
    correct: { kind: 'Unknown' },
    broken: { kind: 'New' },
  },
  {
    mutant: 'acquire-all-keeps-partial',
    rule: 'an AcquireAll that finds a scope busy leaves no lease on the scopes before it (§99–§105)',
    script: async (run) => {
      await run({ kind: 'Acquire', scope: 'env:b', holder: 'a', ttlMs: 1_000 }, 0);
      await run({ kind: 'AcquireAll', scopes: ['env:b', 'env:a'], holder: 'c', ttlMs: 1_000 }, 10);
      return run({ kind: 'Acquire', scope: 'env:a', holder: 'd', ttlMs: 1_000 }, 20);
    },
    correct: { kind: 'Acquired', lease: { holder: 'd', token: 1 } },
    broken: { kind: 'Busy', holder: 'c', token: 1 },
  },
  {
    mutant: 'list-omits-leased',
    rule: 'ListJobs leaves out a job whose attempt holds it leased (seed 001 §84–§85)',
    script: async (run) => {
      await run({ kind: 'SubmitJob', jobId: 'j1', scope: 'env:prod' }, 0);
      await run({ kind: 'DispatchJob', jobId: 'j1', holder: 'c1', ttlMs: 1_000 }, 10);
      return run({ kind: 'ListJobs' }, 2_000);
    },
    correct: { kind: 'JobList', jobs: [{ jobId: 'j1', status: 'leased', attemptLive: false }] },
    broken: { kind: 'JobList', jobs: [] },
  },
  {
    mutant: 'dispatch-outside-lease-transaction',
    rule: 'a dispatch that created the job lease leaves the job row without its attempt, so the attempt cannot finish it (seed 001 §93)',
    script: async (run) => {
      await run({ kind: 'SubmitJob', jobId: 'j1', scope: 'env:prod' }, 0);
      await run({ kind: 'DispatchJob', jobId: 'j1', holder: 'c1', ttlMs: 1_000 }, 10);
      return run({ kind: 'FinishJob', jobId: 'j1', token: 1 }, 20);
    },
    correct: { kind: 'JobFinished', job: { status: 'done', attemptToken: 1 } },
    broken: { kind: 'StaleAttempt', job: { status: 'eligible', attemptToken: 0 } },
  },
  {
    mutant: 'tombstones-pruned',
    rule: 'when a scope is taken again, the record of the owner before it is gone from the store (§205–§206, §259–§261)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'Release', scope: 'env:prod', holder: 'a', token: 1 }, 10);
      await run(acquire('b'), 20);
      return run({ kind: 'Inspect' }, 30);
    },
    correct: { kind: 'Snapshot', view: { tombstones: [{ scope: 'env:prod', holder: 'a', token: 1 }] } },
    broken: { kind: 'Snapshot', view: { tombstones: [] } },
  },
  {
    mutant: 'session-reentrant-acquire',
    rule: 'an Acquire from the process that took the live lease is granted again, whatever holder it names (§21–§24, §72–§74)',
    script: async (run) => {
      const process: CallContext = { process: 'n1#1', node: 'n1' };
      await run(acquire('a'), 0, 0, process);
      return run(acquire('b'), 10, 10, process);
    },
    correct: { kind: 'Busy', holder: 'a', token: 1 },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
  },
  {
    mutant: 'unlogged-leases',
    rule: 'a database crash ends the live leases, and another holder takes the scope before the lease expires (§74, §286)',
    script: async (run, store) => {
      await run(acquire('a'), 0);
      // The correct store has no lifecycle(): nothing happens to it, as nothing must.
      await store.lifecycle?.({ kind: 'database-crash', process: null, node: null });
      return run(acquire('b'), 10);
    },
    correct: { kind: 'Busy', holder: 'a', token: 1 },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
  },
  {
    mutant: 'finish-after-return',
    rule: 'an attempt that gave its job back still finishes it (seed 001 §76–§77)',
    script: async (run) => {
      await run({ kind: 'SubmitJob', jobId: 'j1', scope: 'env:prod' }, 0);
      await run({ kind: 'DispatchJob', jobId: 'j1', holder: 'c1', ttlMs: 1_000 }, 10);
      await run({ kind: 'ReturnJob', jobId: 'j1', token: 1 }, 20);
      return run({ kind: 'FinishJob', jobId: 'j1', token: 1 }, 30);
    },
    correct: { kind: 'StaleAttempt', job: { status: 'eligible', attemptToken: 1 } },
    broken: { kind: 'JobFinished', job: { status: 'done', attemptToken: 1 } },
  },
  {
    mutant: 'ttl-max-excluded',
    rule: 'a lease of exactly the maximum TTL is refused as out of bounds (§31)',
    script: async (run) => run(acquire('a', 600_000), 0),
    correct: { kind: 'Acquired', lease: { holder: 'a', token: 1, expiresAt: 600_000 } },
    broken: { kind: 'Rejected', reason: 'ttl-out-of-bounds' },
  },
  {
    mutant: 'blank-reason-ascii-only',
    rule: 'a reason of Unicode white space only passes as a reason (§200–§206, clarification 14)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run({ ...forceRelease(1), reason: '\u00a0\t\u3000' } as Command, 10);
    },
    correct: { kind: 'Denied', reason: 'reason-required' },
    broken: { kind: 'ForceReleased', tombstone: { holder: 'a', token: 1, reason: '\u00a0\t\u3000' } },
  },
  {
    mutant: 'acquire-all-first-eight',
    rule: 'past the eighth scope in canonical order, AcquireAll takes a scope another holder leases (§99–§109)',
    script: async (run) => {
      await run({ kind: 'Acquire', scope: 'env:9', holder: 'a', ttlMs: 1_000 }, 0);
      return run({ kind: 'AcquireAll', scopes: ['env:1', 'env:2', 'env:3', 'env:4', 'env:5', 'env:6', 'env:7', 'env:8', 'env:9'], holder: 'b', ttlMs: 1_000 }, 10);
    },
    correct: { kind: 'Busy', scope: 'env:9', holder: 'a', token: 1 },
    broken: { kind: 'AcquiredAll' },
  },
  {
    mutant: 'force-release-ignores-privilege',
    rule: 'a force release without the privilege removes the live lease (§200–§206, §290)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run({ ...forceRelease(1), privileged: false } as Command, 10);
    },
    correct: { kind: 'Denied', reason: 'not-privileged' },
    broken: { kind: 'ForceReleased', tombstone: { holder: 'a', token: 1, cause: 'force-released' } },
  },
  {
    mutant: 'restore-drops-jobs',
    rule: 'a restore from an image taken after a job was accepted comes back without the job (seed 001 §93, §340)',
    script: async (run, store) => {
      await run({ kind: 'SubmitJob', jobId: 'j1', scope: 'env:prod' }, 0);
      await store.restore!(await store.snapshot!());
      return run({ kind: 'ListJobs' }, 10);
    },
    correct: { kind: 'JobList', jobs: [{ jobId: 'j1', status: 'eligible' }] },
    broken: { kind: 'JobList', jobs: [] },
  },
  {
    mutant: 'authority-epoch-per-scope',
    rule: 'a failover writes authority epoch 2 of the domain; the old site\'s epoch 1 still takes a scope it used before (000 §168, §296)',
    script: async (run) => {
      const old = { role: 'authority:t1', epoch: 1 };
      await run({ kind: 'Acquire', scope: 'env:prod', holder: 'a', ttlMs: 1_000, guard: old }, 0);
      await run({ kind: 'AdvanceRoleEpoch', role: 'authority:t1', epoch: 2 }, 1_500);
      return run({ kind: 'Acquire', scope: 'env:prod', holder: 'a', ttlMs: 1_000, guard: old }, 1_600);
    },
    correct: { kind: 'Fenced', role: 'authority:t1', currentEpoch: 2 },
    broken: { kind: 'Acquired', lease: { holder: 'a', token: 2 } },
  },
  {
    mutant: 'complete-overwrites-final',
    rule: 'a completion on a Succeeded record overwrites its outcome instead of AlreadyFinal (000 §45, §48–§51)',
    script: async (run) => {
      await run(begin('d1'), 0);
      await run(complete('d1', { kind: 'Succeeded', response: 'r1' }), 10);
      await run(complete('d1', { kind: 'Unknown' }), 20);
      return run(begin('d1'), 30);
    },
    correct: { kind: 'Replay', outcome: { kind: 'Succeeded', response: 'r1' } },
    broken: { kind: 'Unknown' },
  },
  {
    mutant: 'expired-units-still-counted',
    rule: 'a reservation that ran out keeps its units: the next reservation of a one-unit pool is Overbooked (000 §93–§98, §207–§212)',
    script: async (run) => {
      await run(capacity('dev:pool', 1), 0);
      await run(reserve('r1', 'a', 1_000), 0);
      return run(reserve('r2', 'b', 1_000), 1_000);
    },
    correct: { kind: 'Reserved', reservation: { reservationId: 'r2' } },
    broken: { kind: 'Overbooked', inUse: 1, capacity: 1 },
  },
  {
    mutant: 'busy-from-lease-cache',
    rule: 'after a restore to an image without the lease, Acquire is answered Busy by the lease the image lacks (000 §272–§276)',
    script: async (run, store) => {
      const image = await store.snapshot!();
      await run(acquire('a'), 0);
      await store.restore!(image);
      return run(acquire('b'), 10);
    },
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 1 } },
    broken: { kind: 'Busy', holder: 'a', token: 1 },
  },
];

describe('store-level mutants break exactly one rule', () => {
  it('covers every store-level mutant of the catalogue', async () => {
    const { MUTANTS } = await import('../../mutants/index.ts');
    const storeLevel = MUTANTS.filter((m) => m.wraps !== undefined).map((m) => m.name);
    expect(CASES.map((c) => c.mutant).sort()).toEqual([...storeLevel].sort());
  });

  for (const rule of CASES) {
    it(`${rule.mutant}: ${rule.rule}`, async () => {
      const correct = await play(createMemoryStore, rule.script);
      const broken = await play(mutantFactory(rule.mutant), rule.script);
      expect(correct).toMatchObject(rule.correct);
      expect(broken).toMatchObject(rule.broken);
      expect(broken).not.toEqual(correct);
    });
  }

  it('a store-level mutant answers like the correct store where its rule is not involved', async () => {
    const script: Script = async (run) => {
      await run(acquire('a'), 0);
      await run(mutate('a', 1), 10);
      await run(renew('a', 1), 20);
      await run(release('a', 1), 30);
      return run({ kind: 'Inspect' }, 40);
    };
    const expected = await play(createMemoryStore, script);
    for (const rule of CASES) expect(await play(mutantFactory(rule.mutant), script), rule.mutant).toEqual(expected);
  });
});
