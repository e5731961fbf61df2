// seed 000 §24–§53, §79–§114, §200–§213, §271–§276, seed 001 §94, seed 002: each store-level mutant breaks exactly its one rule, shown by a short command sequence where it answers differently from the correct store.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant, mutantStoreFactory } from '../../adapters/mutants/index.ts';
import type { Store, StoreFactory, StoreOptions } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { Outcome } from '../../model/outcomes.ts';

/** A manual store clock and a manual caller clock, set by each step of a script. */
interface Clocks {
  store: number;
  caller: number;
}

type Script = (run: (command: Command, at: number, callerAt?: number) => Promise<Outcome>, store: Store) => Promise<Outcome>;

async function play(factory: StoreFactory, script: Script): Promise<Outcome> {
  const clocks: Clocks = { store: 0, caller: 0 };
  const options: StoreOptions = { time: { now: () => clocks.store }, callerClock: { now: () => clocks.caller } };
  const store = await factory(options);
  try {
    return await script(async (command, at, callerAt = at) => {
      clocks.store = at;
      clocks.caller = callerAt;
      return store.execute(command);
    }, store);
  } finally {
    await store.close();
  }
}

function mutantFactory(name: string): StoreFactory {
  const mutant = findMutant(name);
  expect(mutant?.store, `${name} is a store-level mutant`).toBeDefined();
  return mutantStoreFactory(mutant!, createMemoryStore);
}

const acquire = (holder: string, ttlMs = 1_000): Command => ({ kind: 'Acquire', scope: 'env:prod', holder, ttlMs });
const enqueue = (waiterId: string, holder: string, priority: number): Command => ({ kind: 'Enqueue', scope: 'env:prod', waiterId, holder, priority });
const KEY = { tenant: 't1', operation: 'api-create', subject: 's1', key: 'k1' } as const;

interface RuleCase {
  readonly mutant: string;
  readonly rule: string;
  readonly script: Script;
  readonly correct: Record<string, unknown>;
  readonly broken: Record<string, unknown>;
}

const CASES: ReadonlyArray<RuleCase> = [
  {
    mutant: 'no-fencing-check',
    rule: 'a stale holder’s write is accepted after a newer owner took the scope (§25)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(acquire('b'), 1_500);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 1_600);
    },
    correct: { kind: 'StaleFence', currentToken: 2 },
    broken: { kind: 'Accepted', version: 1, token: 1 },
  },
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
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(acquire('b'), 1_500);
      return run({ kind: 'Renew', scope: 'env:prod', holder: 'a', expectedToken: 1, ttlMs: 1_000 }, 1_600);
    },
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'Renewed', lease: { scope: 'env:prod', holder: 'a', token: 1, acquiredAt: 1_600, expiresAt: 2_600 } },
  },
  {
    mutant: 'advisory-lock-only',
    rule: 'the next owner of a free scope gets token 1 again instead of a higher token (§24, §280)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'Release', scope: 'env:prod', holder: 'a', token: 1 }, 10);
      return run(acquire('b'), 20);
    },
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'key-only-force-release',
    rule: 'a force release aimed at an expired holder’s epoch destroys the newer holder’s lease (seed 002, §290)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(acquire('b'), 1_500);
      return run({ kind: 'ForceRelease', scope: 'env:prod', expectedToken: 1, actor: 'ops', reason: 'stuck', privileged: true }, 1_600);
    },
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'ForceReleased', tombstone: { holder: 'b', token: 2, cause: 'force-released' } },
  },
  {
    mutant: 'epoch-reset-after-restore',
    rule: 'after restoring an older image, tokens issued after the backup are issued again (§271–§274)',
    script: async (run, store) => {
      await run(acquire('a'), 0);
      const image = await store.snapshot!();
      await run({ kind: 'Release', scope: 'env:prod', holder: 'a', token: 1 }, 10);
      await run(acquire('b'), 20);
      await store.restore!(image);
      await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] }, 30);
      return run(acquire('c'), 40);
    },
    correct: { kind: 'Acquired', lease: { holder: 'c', token: 1_000_000_001 } },
    broken: { kind: 'Acquired', lease: { holder: 'c', token: 2 } },
  },
  {
    mutant: 'semaphore-off-by-one',
    rule: 'a full semaphore admits one more unit (§93, §293)',
    script: async (run) => {
      await run({ kind: 'DefineCapacity', scope: 'sem:sign', capacity: 2 }, 0);
      await run({ kind: 'AcquirePermit', scope: 'sem:sign', permitId: 'p1', holder: 'a', units: 2, ttlMs: 1_000 }, 0);
      return run({ kind: 'AcquirePermit', scope: 'sem:sign', permitId: 'p2', holder: 'b', units: 1, ttlMs: 1_000 }, 10);
    },
    correct: { kind: 'Busy', inUse: 2, capacity: 2 },
    broken: { kind: 'Granted', permit: { permitId: 'p2', units: 1 } },
  },
  {
    mutant: 'capacity-checks-full-only',
    rule: 'a request for two units is admitted with one unit left (§93, §293)',
    script: async (run) => {
      await run({ kind: 'DefineCapacity', scope: 'sem:sign', capacity: 2 }, 0);
      await run({ kind: 'AcquirePermit', scope: 'sem:sign', permitId: 'p1', holder: 'a', units: 1, ttlMs: 1_000 }, 0);
      return run({ kind: 'AcquirePermit', scope: 'sem:sign', permitId: 'p2', holder: 'b', units: 2, ttlMs: 1_000 }, 10);
    },
    correct: { kind: 'Busy', inUse: 1, capacity: 2 },
    broken: { kind: 'Granted', permit: { permitId: 'p2', units: 2 } },
  },
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
    script: async (run) => {
      await run(acquire('a'), 0);
      return run(acquire('a'), 10);
    },
    correct: { kind: 'Busy', holder: 'a', token: 1 },
    broken: { kind: 'Acquired', lease: { holder: 'a', token: 2 } },
  },
  {
    mutant: 'acquire-bypasses-queue',
    rule: 'a caller without a waiter id takes a free scope while a waiter is queued (Acquire step 5, §86–§90)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(enqueue('w1', 'b', 0), 10);
      return run(acquire('c'), 1_500);
    },
    correct: { kind: 'Rejected', reason: 'not-head-of-queue' },
    broken: { kind: 'Acquired', lease: { holder: 'c' } },
  },
  {
    mutant: 'any-waiter-acquires',
    rule: 'a queued waiter that is not the head takes the scope (Acquire step 5, §90)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(enqueue('w1', 'b', 0), 10);
      await run(enqueue('w2', 'c', 0), 20);
      return run({ ...acquire('c'), waiterId: 'w2' } as Command, 1_500);
    },
    correct: { kind: 'Rejected', reason: 'not-head-of-queue' },
    broken: { kind: 'Acquired', lease: { holder: 'c' } },
  },
  {
    mutant: 'fifo-ignores-priority',
    rule: 'the oldest waiter goes first although a later one has a higher priority (§91)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(enqueue('w1', 'b', 0), 10);
      await run(enqueue('w2', 'c', 5), 20);
      return run({ ...acquire('b'), waiterId: 'w1' } as Command, 1_500);
    },
    correct: { kind: 'Rejected', reason: 'not-head-of-queue' },
    broken: { kind: 'Acquired', lease: { holder: 'b' } },
  },
  {
    mutant: 'priority-without-aging',
    rule: 'a newcomer of higher priority goes before a waiter that has aged past it (§92)',
    script: async (run) => {
      await run(acquire('a', 10_000), 0);
      await run(enqueue('w1', 'b', 0), 10);
      await run(enqueue('w2', 'c', 2), 9_000);
      return run({ ...acquire('c'), waiterId: 'w2' } as Command, 10_500);
    },
    correct: { kind: 'Rejected', reason: 'not-head-of-queue' },
    broken: { kind: 'Acquired', lease: { holder: 'c' } },
  },
  {
    mutant: 'release-ignores-token',
    rule: 'a late Release with an old token ends the successor’s lease (§33–§36, §114)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(acquire('b'), 1_500);
      return run({ kind: 'Release', scope: 'env:prod', holder: 'a', token: 1 }, 1_600);
    },
    correct: { kind: 'Stale', currentToken: 2 },
    broken: { kind: 'Released', token: 2 },
  },
  {
    mutant: 'handoff-keeps-token',
    rule: 'a handoff keeps the old token instead of issuing a new one (§113)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run({ kind: 'Handoff', scope: 'env:prod', holder: 'a', token: 1, newHolder: 'b', ttlMs: 1_000 }, 10);
    },
    correct: { kind: 'HandedOff', lease: { holder: 'b', token: 2 } },
    broken: { kind: 'HandedOff', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'force-release-lowers-token',
    rule: 'after a force release the next owner is issued the force-released token again (§203–§204)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'ForceRelease', scope: 'env:prod', expectedToken: 1, actor: 'ops', reason: 'stuck', privileged: true }, 10);
      return run(acquire('b'), 20);
    },
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 3 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 1 } },
  },
  {
    mutant: 'force-release-no-burn',
    rule: 'a force release burns no token: the next owner gets the removed token plus one (§203–§204)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'ForceRelease', scope: 'env:prod', expectedToken: 1, actor: 'ops', reason: 'stuck', privileged: true }, 10);
      return run(acquire('b'), 20);
    },
    correct: { kind: 'Acquired', lease: { holder: 'b', token: 3 } },
    broken: { kind: 'Acquired', lease: { holder: 'b', token: 2 } },
  },
  {
    mutant: 'mutate-ignores-version',
    rule: 'a write that expects an older version is accepted over the change it never saw (§66–§70)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 10);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 20);
    },
    correct: { kind: 'StaleVersion', currentVersion: 1 },
    broken: { kind: 'Accepted', version: 2, token: 1 },
  },
  {
    mutant: 'mutate-ignores-expiry',
    rule: 'a write under an expired lease is accepted while nobody replaced the row (§25–§31)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 1_500);
    },
    correct: { kind: 'StaleFence', currentToken: null },
    broken: { kind: 'Accepted', version: 1, token: 1 },
  },
  {
    mutant: 'renew-revives-expired',
    rule: 'renewing an expired lease revives it instead of answering Expired (§31–§35)',
    script: async (run) => {
      await run(acquire('a'), 0);
      return run({ kind: 'Renew', scope: 'env:prod', holder: 'a', expectedToken: 1, ttlMs: 1_000 }, 1_500);
    },
    correct: { kind: 'Expired' },
    broken: { kind: 'Renewed', lease: { holder: 'a', token: 1, expiresAt: 2_500 } },
  },
  {
    mutant: 'fence-by-aggregate-high-water',
    rule: 'a stale holder writes after its successor was granted, before the successor wrote (§25–§30)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run(acquire('b'), 1_500);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 1_600);
    },
    correct: { kind: 'StaleFence', currentToken: 2 },
    broken: { kind: 'Accepted', version: 1, token: 1 },
  },
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
  {
    mutant: 'recovery-keeps-leases',
    rule: 'a lease live before the recovery epoch still accepts writes after it (§273)',
    script: async (run) => {
      await run(acquire('a'), 0);
      await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] }, 10);
      return run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 20);
    },
    correct: { kind: 'StaleFence', currentToken: null },
    broken: { kind: 'Accepted', version: 1, token: 1 },
  },
  {
    mutant: 'recovery-skips-block',
    rule: 'a scope the recovery procedure names is not blocked: a new owner takes it before reconciliation (§237, §275)',
    script: async (run) => {
      await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: ['env:prod'] }, 0);
      return run(acquire('b'), 10);
    },
    correct: { kind: 'Rejected', reason: 'blocked-for-reconciliation' },
    broken: { kind: 'Acquired', lease: { holder: 'b' } },
  },
  {
    mutant: 'reservations-not-counted',
    rule: 'a second reservation of a one-unit pool is granted while the first holds it (§207)',
    script: async (run) => {
      await run({ kind: 'DefineCapacity', scope: 'dev:pool', capacity: 1 }, 0);
      await run({ kind: 'Reserve', scope: 'dev:pool', reservationId: 'r1', owner: 'a', units: 1, ttlMs: 1_000 }, 0);
      return run({ kind: 'Reserve', scope: 'dev:pool', reservationId: 'r2', owner: 'b', units: 1, ttlMs: 1_000 }, 10);
    },
    correct: { kind: 'Overbooked', inUse: 1, capacity: 1 },
    broken: { kind: 'Reserved', reservation: { reservationId: 'r2' } },
  },
  {
    mutant: 'expired-reservation-consumed',
    rule: 'an expired reservation is consumed (§37–§42)',
    script: async (run) => {
      await run({ kind: 'DefineCapacity', scope: 'dev:pool', capacity: 1 }, 0);
      await run({ kind: 'Reserve', scope: 'dev:pool', reservationId: 'r1', owner: 'a', units: 1, ttlMs: 100 }, 0);
      return run({ kind: 'ConsumeReservation', reservationId: 'r1' }, 200);
    },
    correct: { kind: 'ReservationExpired' },
    broken: { kind: 'ReservationUpdated', reservation: { reservationId: 'r1', state: 'Consumed' } },
  },
  {
    mutant: 'digest-ignored',
    rule: 'another request reusing a key is answered from the first request’s record, not Conflict (§46–§47)',
    script: async (run) => {
      await run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 0);
      return run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd2', retentionMs: 60_000, retryAfterTerminal: false }, 10);
    },
    correct: { kind: 'Conflict', existingDigest: 'd1' },
    broken: { kind: 'InProgress' },
  },
  {
    mutant: 'complete-ignores-digest',
    rule: 'a completion carrying another request’s digest is recorded on the key’s record, not Conflict (§46–§47)',
    script: async (run) => {
      await run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 0);
      return run({ kind: 'IdempotencyComplete', ...KEY, digest: 'd2', outcome: { kind: 'Succeeded', response: 'r2' } }, 10);
    },
    correct: { kind: 'Conflict', existingDigest: 'd1' },
    broken: { kind: 'Recorded' },
  },
  {
    mutant: 'idempotency-key-unscoped',
    rule: 'a request of another subject reusing a key finds the other subject’s record (§44–§45)',
    script: async (run) => {
      await run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 0);
      return run({ kind: 'IdempotencyBegin', ...KEY, subject: `${KEY.subject}-other`, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 10);
    },
    correct: { kind: 'New' },
    broken: { kind: 'InProgress' },
  },
  {
    mutant: 'unknown-begins-new',
    rule: 'a request on a record whose outcome is Unknown starts the operation anew (§52–§53)',
    script: async (run) => {
      await run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 0);
      await run({ kind: 'IdempotencyComplete', ...KEY, digest: 'd1', outcome: { kind: 'Unknown' } }, 10);
      return run({ kind: 'IdempotencyBegin', ...KEY, digest: 'd1', retentionMs: 60_000, retryAfterTerminal: false }, 20);
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
];

describe('store-level mutants break exactly one rule', () => {
  it('covers every store-level mutant of the catalogue', async () => {
    const { MUTANTS } = await import('../../adapters/mutants/index.ts');
    const storeLevel = MUTANTS.filter((m) => m.store !== undefined).map((m) => m.name);
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
      await run({ kind: 'Mutate', scope: 'env:prod', aggregate: 'deploy', holder: 'a', token: 1, expectedVersion: 0 }, 10);
      await run({ kind: 'Renew', scope: 'env:prod', holder: 'a', expectedToken: 1, ttlMs: 1_000 }, 20);
      await run({ kind: 'Release', scope: 'env:prod', holder: 'a', token: 1 }, 30);
      return run({ kind: 'Inspect' }, 40);
    };
    const expected = await play(createMemoryStore, script);
    for (const rule of CASES) expect(await play(mutantFactory(rule.mutant), script), rule.mutant).toEqual(expected);
  });
});
