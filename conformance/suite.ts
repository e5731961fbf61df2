// The one conformance suite of the store port: every command kind and the outcome rules of
// model/SEMANTICS.md, under virtual time, against any store (memory, PostgreSQL, a user's module).
// Expected outcomes are written out from the rule book, not computed by the model, so the suite
// also checks the model itself. Users import it as `concurrency-testbed/conformance` in a vitest
// file of their own (vitest is then theirs: this module only calls describe, test and expect).

import { describe, expect, test } from 'vitest';
import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { Store, TimeSource } from '../adapters/port.ts';

/** Opens a fresh, empty store that reads time from `time` (the suite's virtual clock). */
export type MakeStore = (time: TimeSource) => Promise<Store>;

interface Harness {
  readonly clock: { now(): number; advance(ms: number): void };
  readonly store: Store;
  run<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  /**
   * The store's view (`Inspect`) for checks of what a test's commands left behind; null when the
   * store does not declare Inspect, so a test of commands the store has still runs without them.
   */
  inspected(): Promise<View | null>;
}

type View = Extract<OutcomeOf<Extract<Command, { kind: 'Inspect' }>>, { view: unknown }>['view'];

const STRIDE = 1_000_000_000;

/** A test reached a command kind the store does not declare (`capabilities.commands`). */
class Lacks extends Error {
  constructor(what: string) {
    super(`the store lacks ${what}`);
  }
}

/**
 * Runs one test on a fresh store. A test that needs a command the store does not declare is
 * skipped at that command, with the command named: untested, neither passed nor failed.
 */
function withStore(makeStore: MakeStore, body: (h: Harness) => Promise<void>): (context: { skip(note?: string): never }) => Promise<void> {
  return async (context) => {
    let t = 10_000;
    const clock = { now: () => t, advance: (ms: number) => void (t += ms) };
    const store = await makeStore(clock);
    const declared = store.capabilities?.commands;
    const run = <C extends Command>(command: C): Promise<OutcomeOf<C>> => {
      if (declared !== undefined && !declared.includes(command.kind)) throw new Lacks(command.kind);
      return store.execute(command);
    };
    let lacking: Lacks | null = null;
    try {
      const inspected = async () => (declared === undefined || declared.includes('Inspect') ? (await store.execute({ kind: 'Inspect' })).view : null);
      await body({ clock, store, run, inspected });
    } catch (error) {
      if (!(error instanceof Lacks)) throw error;
      lacking = error;
    } finally {
      await store.close();
    }
    if (lacking !== null) context.skip(`untested: ${lacking.message}`);
  };
}

const acquire = (scope: string, holder: string, ttlMs = 1000, extra: Partial<Command> = {}) =>
  ({ kind: 'Acquire', scope, holder, ttlMs, ...extra }) as Extract<Command, { kind: 'Acquire' }>;

const key = { tenant: 't', operation: 'deploy', subject: 'env-1', key: 'k-1' };

/**
 * Declares the conformance suite (a vitest `describe` titled `store conformance: <name>`) for the
 * store that `makeStore` opens. Every test opens its own store and closes it afterwards.
 */
export function describeStoreConformance(name: string, makeStore: MakeStore): void {
  const it = (title: string, body: (h: Harness) => Promise<void>) => test(title, withStore(makeStore, body));

  describe(`store conformance: ${name}`, () => {
    describe('leases and fencing (§21–§36, §75–§85)', () => {
      it('a free scope is acquired with token 1; a second acquire is Busy, also for the same holder', async ({ run }) => {
        expect(await run(acquire('s', 'a', 500))).toEqual({ kind: 'Acquired', lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 10_000, expiresAt: 10_500 } });
        expect(await run(acquire('s', 'b'))).toEqual({ kind: 'Busy', holder: 'a', token: 1, expiresAt: 10_500 });
        expect(await run(acquire('s', 'a'))).toEqual({ kind: 'Busy', holder: 'a', token: 1, expiresAt: 10_500 });
      });

      it('ttl and ids are validated: ttl-out-of-bounds, invalid-argument, nothing changes', async ({ run, inspected }) => {
        for (const ttlMs of [0, -1, 1.5, 600_001]) expect(await run(acquire('s', 'a', ttlMs))).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
        for (const scope of ['', 'x'.repeat(257), 'a\u0001b', 'a\u007fb', 'nul\u0000']) {
          expect(await run(acquire(scope, 'a'))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        }
        expect(await run(acquire('s', ''))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run(acquire('x'.repeat(256), 'a'))).toMatchObject({ kind: 'Acquired' });
        const view = await inspected();
        if (view !== null) expect(view.tokens).toEqual([{ scope: 'x'.repeat(256), lastToken: 1 }]);
      });

      it('expiry is decided by store time: live iff now < expiresAt, and expiry does not reset the token', async ({ run, clock, inspected }) => {
        await run(acquire('s', 'a', 100));
        clock.advance(99);
        expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Busy' });
        clock.advance(1);
        expect(await run(acquire('s', 'b', 100))).toMatchObject({ kind: 'Acquired', lease: { holder: 'b', token: 2 } });
        const view = await inspected();
        if (view !== null) expect(view.tombstones).toEqual([]);
      });

      it('renew: Renewed for the live holder, Expired for its expired row, Stale otherwise', async ({ run, clock }) => {
        await run(acquire('s', 'a', 100));
        expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
        clock.advance(50);
        expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({
          kind: 'Renewed',
          lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 10_000, expiresAt: 10_250 },
        });
        expect(await run({ kind: 'Renew', scope: 's', holder: 'b', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: 1 });
        expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 7, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: 1 });
        clock.advance(200);
        expect(await run({ kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Expired' });
        expect(await run({ kind: 'Renew', scope: 's', holder: 'b', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: null });
        expect(await run({ kind: 'Renew', scope: 'never', holder: 'a', expectedToken: 1, ttlMs: 200 })).toEqual({ kind: 'Stale', currentToken: null });
      });

      it('release ends the lease with a tombstone; a stale release changes nothing', async ({ run, clock, inspected }) => {
        await run(acquire('s', 'a'));
        expect(await run({ kind: 'Release', scope: 's', holder: 'b', token: 1 })).toEqual({ kind: 'Stale', currentToken: 1 });
        clock.advance(5);
        expect(await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 })).toEqual({ kind: 'Released', token: 1 });
        expect(await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 })).toEqual({ kind: 'Stale', currentToken: null });
        expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Acquired', lease: { token: 2 } });
        const view = await inspected();
        if (view !== null) expect(view.tombstones).toEqual([{ scope: 's', holder: 'a', token: 1, endedAt: 10_005, cause: 'released' }]);
      });

      it('handoff (§110–§114) issues a new token to the new holder and tombstones the old lease', async ({ run, clock }) => {
        await run(acquire('s', 'a'));
        clock.advance(10);
        expect(await run({ kind: 'Handoff', scope: 's', holder: 'a', token: 1, newHolder: 'b', ttlMs: 0 })).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
        expect(await run({ kind: 'Handoff', scope: 's', holder: 'x', token: 1, newHolder: 'b', ttlMs: 300 })).toEqual({ kind: 'Stale', currentToken: 1 });
        expect(await run({ kind: 'Handoff', scope: 's', holder: 'a', token: 1, newHolder: 'b', ttlMs: 300 })).toEqual({
          kind: 'HandedOff',
          lease: { scope: 's', holder: 'b', token: 2, acquiredAt: 10_010, expiresAt: 10_310 },
        });
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.tombstones).toEqual([{ scope: 's', holder: 'a', token: 1, endedAt: 10_010, cause: 'handed-off' }]);
        expect(view.leases).toEqual([{ scope: 's', holder: 'b', token: 2, acquiredAt: 10_010, expiresAt: 10_310 }]);
      });

      it('force release (§200–§206) needs the privilege, a reason and the exact token; it burns one token', async ({ run }) => {
        await run(acquire('s', 'a'));
        const base = { kind: 'ForceRelease', scope: 's', expectedToken: 1, actor: 'ops', reason: 'stuck' } as const;
        expect(await run({ ...base, privileged: false })).toEqual({ kind: 'Denied', reason: 'not-privileged' });
        expect(await run({ ...base, reason: '  ', privileged: true })).toEqual({ kind: 'Denied', reason: 'reason-required' });
        expect(await run({ ...base, expectedToken: 2, privileged: true })).toEqual({ kind: 'Stale', currentToken: 1 });
        const tombstone = { scope: 's', holder: 'a', token: 1, endedAt: 10_000, cause: 'force-released', actor: 'ops', reason: 'stuck' };
        expect(await run({ ...base, privileged: true })).toEqual({ kind: 'ForceReleased', tombstone, nextToken: 3 });
        expect(await run(acquire('s', 'b'))).toMatchObject({ kind: 'Acquired', lease: { token: 3 } });
        expect((await run({ kind: 'Inspect' })).view.tombstones).toEqual([tombstone]);
      });
    });

    describe('waiting (§86–§92)', () => {
      it('only the head of the queue may acquire; priority first, then FIFO', async ({ run }) => {
        expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w1', holder: 'a', priority: 0 })).toEqual({ kind: 'Enqueued', position: 1 });
        expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w2', holder: 'b', priority: 5 })).toEqual({ kind: 'Enqueued', position: 1 });
        expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w3', holder: 'c', priority: 0 })).toEqual({ kind: 'Enqueued', position: 3 });
        expect(await run({ kind: 'Enqueue', scope: 'other', waiterId: 'w1', holder: 'a', priority: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'w4', holder: 'a', priority: 1001 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run(acquire('s', 'z'))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
        expect(await run(acquire('s', 'z', 1000, { waiterId: 'nobody' }))).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
        expect(await run(acquire('s', 'a', 1000, { waiterId: 'w1' }))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
        expect(await run(acquire('s', 'b', 1000, { waiterId: 'w2' }))).toMatchObject({ kind: 'Acquired', lease: { holder: 'b', token: 1 } });
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.waiters.map((w) => [w.waiterId, w.seq])).toEqual([['w1', 1], ['w3', 3]]);
        expect(view.scopeStates).toEqual([{ scope: 's', state: 'Owned' }]);
      });

      it('aging: a waiter gains one priority step per second waited, so no waiter starves (§92)', async ({ run, clock }) => {
        await run({ kind: 'Enqueue', scope: 's', waiterId: 'old', holder: 'a', priority: 0 });
        clock.advance(3_000);
        expect(await run({ kind: 'Enqueue', scope: 's', waiterId: 'new', holder: 'b', priority: 2 })).toEqual({ kind: 'Enqueued', position: 2 });
        expect(await run(acquire('s', 'b', 1000, { waiterId: 'new' }))).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
        expect(await run(acquire('s', 'a', 1000, { waiterId: 'old' }))).toMatchObject({ kind: 'Acquired' });
      });

      it('cancel removes a waiter once; an empty queue with a waiterId is unknown-waiter', async ({ run }) => {
        await run({ kind: 'Enqueue', scope: 's', waiterId: 'w1', holder: 'a', priority: 0 });
        expect(await run({ kind: 'CancelWait', scope: 'other', waiterId: 'w1' })).toEqual({ kind: 'NotWaiting' });
        expect(await run({ kind: 'CancelWait', scope: 's', waiterId: 'w1' })).toEqual({ kind: 'WaitCancelled' });
        expect(await run({ kind: 'CancelWait', scope: 's', waiterId: 'w1' })).toEqual({ kind: 'NotWaiting' });
        expect(await run(acquire('s', 'a', 1000, { waiterId: 'w1' }))).toEqual({ kind: 'Rejected', reason: 'unknown-waiter' });
        expect((await run({ kind: 'Inspect' })).view.scopeStates).toEqual([]);
      });
    });

    describe('protected mutation and role guards (§66–§70; seed 001 §92–§95)', () => {
      it('needs the live token and the expected version; both are checked', async ({ run, clock, inspected }) => {
        await run(acquire('s', 'a', 100));
        const m = { kind: 'Mutate', scope: 's', aggregate: 'deploy', holder: 'a', token: 1 } as const;
        expect(await run({ ...m, expectedVersion: 0 })).toEqual({ kind: 'Accepted', version: 1, token: 1 });
        expect(await run({ ...m, expectedVersion: 0 })).toEqual({ kind: 'StaleVersion', currentVersion: 1 });
        expect(await run({ ...m, holder: 'b', expectedVersion: 1 })).toEqual({ kind: 'StaleFence', currentToken: 1 });
        clock.advance(100);
        expect(await run({ ...m, expectedVersion: 1 })).toEqual({ kind: 'StaleFence', currentToken: null });
        const view = await inspected();
        if (view !== null) expect(view.aggregates).toEqual([{ scope: 's', aggregate: 'deploy', version: 1, lastToken: 1 }]);
      });

      it('a guard below the stored role epoch is Fenced; an equal or newer one raises it, even when the rest fails', async ({ run }) => {
        expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 3 })).toEqual({ kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 3 });
        expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 2 })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 3 });
        expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch: 2 } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 3 });
        expect(await run(acquire('s', 'a', 0, { guard: { role: 'scheduler', epoch: 5 } }))).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
        expect(await run({ kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0, guard: { role: 'scheduler', epoch: 4 } })).toEqual({
          kind: 'Fenced',
          role: 'scheduler',
          currentEpoch: 5,
        });
        expect((await run({ kind: 'Inspect' })).view.roleEpochs).toEqual([{ role: 'scheduler', epoch: 5 }]);
      });

      it('an epoch that is not a finite number is Fenced like a negative one and writes nothing (clarification 15)', async ({ run }) => {
        for (const epoch of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
          expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 0 });
          expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 0 });
          expect(await run({ kind: 'Mutate', scope: 's', aggregate: 'g', holder: 'a', token: 1, expectedVersion: 0, guard: { role: 'deployer', epoch } })).toEqual({
            kind: 'Fenced',
            role: 'deployer',
            currentEpoch: 0,
          });
        }
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.roleEpochs).toEqual([]);
        expect(view.leases).toEqual([]);
        expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 1 })).toEqual({ kind: 'RoleEpochAdvanced', role: 'scheduler', epoch: 1 });
        expect(await run(acquire('s', 'a', 1000, { guard: { role: 'scheduler', epoch: Number.NaN } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 1 });
      });
    });

    describe('semaphores and reservations (§37–§42, §93–§98, §207–§213)', () => {
      it('permits and reservations share the capacity; overbooking is an outcome', async ({ run, clock }) => {
        const permit = { kind: 'AcquirePermit', scope: 'slots', holder: 'h', ttlMs: 100 } as const;
        expect(await run({ ...permit, permitId: 'p1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'undefined-capacity' });
        expect(await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 3 })).toEqual({ kind: 'Defined', capacity: 3 });
        expect(await run({ ...permit, permitId: 'p1', units: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ ...permit, permitId: 'p1', units: 2 })).toEqual({ kind: 'Granted', permit: { scope: 'slots', permitId: 'p1', holder: 'h', units: 2, expiresAt: 10_100 } });
        expect(await run({ ...permit, permitId: 'p1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ ...permit, permitId: 'p2', units: 2 })).toEqual({ kind: 'Busy', inUse: 2, capacity: 3 });
        const reserve = { kind: 'Reserve', scope: 'slots', owner: 'o', ttlMs: 50 } as const;
        expect(await run({ ...reserve, reservationId: 'r1', units: 1 })).toEqual({
          kind: 'Reserved',
          reservation: { scope: 'slots', reservationId: 'r1', owner: 'o', units: 1, state: 'Pending', createdAt: 10_000, expiresAt: 10_050 },
        });
        expect(await run({ ...reserve, reservationId: 'r2', units: 1 })).toEqual({ kind: 'Overbooked', inUse: 3, capacity: 3 });
        expect(await run({ ...reserve, reservationId: 'r1', units: 1 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' })).toEqual({ kind: 'PermitReleased' });
        expect(await run({ kind: 'ReleasePermit', scope: 'slots', permitId: 'p1' })).toEqual({ kind: 'NotHeld' });
        clock.advance(50);
        // r1 expired: it holds nothing any more.
        expect(await run({ ...permit, permitId: 'p3', units: 3 })).toMatchObject({ kind: 'Granted' });
      });

      it('reservation transitions follow the state machine; an expired reservation is never consumed', async ({ run, clock }) => {
        await run({ kind: 'DefineCapacity', scope: 'slots', capacity: 5 });
        const reserve = { kind: 'Reserve', scope: 'slots', owner: 'o', units: 1, ttlMs: 100 } as const;
        await run({ ...reserve, reservationId: 'r1' });
        await run({ ...reserve, reservationId: 'r2' });
        expect(await run({ kind: 'ActivateReservation', reservationId: 'nope' })).toEqual({ kind: 'NotFound' });
        expect(await run({ kind: 'ActivateReservation', reservationId: 'r1' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Active' } });
        expect(await run({ kind: 'ActivateReservation', reservationId: 'r1' })).toEqual({ kind: 'InvalidState', state: 'Active' });
        expect(await run({ kind: 'ConsumeReservation', reservationId: 'r1' })).toMatchObject({ kind: 'ReservationUpdated', reservation: { state: 'Consumed' } });
        expect(await run({ kind: 'ReleaseReservation', reservationId: 'r1' })).toEqual({ kind: 'InvalidState', state: 'Consumed' });
        clock.advance(100);
        expect(await run({ kind: 'ConsumeReservation', reservationId: 'r2' })).toEqual({ kind: 'ReservationExpired' });
        expect(await run({ kind: 'FailReservation', reservationId: 'r2' })).toEqual({ kind: 'ReservationExpired' });
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.reservations.map((r) => [r.reservationId, r.state])).toEqual([['r1', 'Consumed'], ['r2', 'Expired']]);
      });
    });

    describe('multi-resource acquisition (§99–§109)', () => {
      it('all or nothing, in canonical order', async ({ run }) => {
        const all = { kind: 'AcquireAll', holder: 'h', ttlMs: 100 } as const;
        expect(await run({ ...all, scopes: [] })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run({ ...all, scopes: ['a', 'a'] })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        await run(acquire('b', 'x'));
        expect(await run({ ...all, scopes: ['c', 'b', 'a'] })).toEqual({ kind: 'Busy', scope: 'b', holder: 'x', token: 1 });
        expect((await run({ kind: 'Inspect' })).view.leases.map((l) => l.scope)).toEqual(['b']);
        const result = await run({ ...all, scopes: ['c', 'a'] });
        expect(result).toMatchObject({ kind: 'AcquiredAll' });
        if (result.kind === 'AcquiredAll') expect(result.leases.map((l) => [l.scope, l.token])).toEqual([['a', 1], ['c', 1]]);
      });
    });

    describe('idempotency (§43–§58)', () => {
      const begin = { kind: 'IdempotencyBegin', ...key, digest: 'd1', retentionMs: 1000, retryAfterTerminal: false } as const;
      const complete = { kind: 'IdempotencyComplete', ...key, digest: 'd1' } as const;

      it('new, in progress, replay; another digest is always a conflict', async ({ run }) => {
        expect(await run({ ...begin, retentionMs: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
        expect(await run(begin)).toEqual({ kind: 'New' });
        expect(await run(begin)).toEqual({ kind: 'InProgress' });
        expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
        expect(await run({ ...complete, digest: 'd2', outcome: { kind: 'Succeeded', response: 'x' } })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
        expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'ok' } })).toEqual({ kind: 'Recorded' });
        expect(await run(begin)).toEqual({ kind: 'Replay', outcome: { kind: 'Succeeded', response: 'ok' } });
        expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'other' } })).toEqual({ kind: 'AlreadyFinal', outcome: { kind: 'Succeeded', response: 'ok' } });
        expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
      });

      it('Unknown is never turned into a new operation (§53); FailedTerminal restarts only when the policy allows', async ({ run }) => {
        await run(begin);
        await run({ ...complete, outcome: { kind: 'Unknown' } });
        expect(await run(begin)).toEqual({ kind: 'Unknown' });
        expect(await run({ ...complete, outcome: { kind: 'FailedTerminal', error: 'declined' } })).toEqual({ kind: 'Recorded' });
        expect(await run(begin)).toEqual({ kind: 'Replay', outcome: { kind: 'FailedTerminal', error: 'declined' } });
        expect(await run({ ...begin, retryAfterTerminal: true })).toEqual({ kind: 'New' });
        expect(await run(begin)).toEqual({ kind: 'InProgress' });
      });

      it('an expired record is absent', async ({ run, clock }) => {
        await run(begin);
        clock.advance(1000);
        expect(await run({ ...complete, outcome: { kind: 'Succeeded', response: 'late' } })).toEqual({ kind: 'NotFound' });
        expect((await run({ kind: 'Inspect' })).view.idempotency).toEqual([]);
        expect(await run({ ...begin, digest: 'd2' })).toEqual({ kind: 'New' });
        expect((await run({ kind: 'Inspect' })).view.idempotency).toEqual([
          { ...key, digest: 'd2', state: 'InProgress', outcome: null, createdAt: 11_000, expiresAt: 12_000 },
        ]);
      });
    });

    describe('effect intents (§59–§65)', () => {
      it('planned once, then only the allowed transitions', async ({ run }) => {
        const plan = { kind: 'PlanIntent', intentId: 'i1', scope: 's', token: 4, operation: 'charge', retrySafety: 'InspectBeforeRetry' } as const;
        const intent = { intentId: 'i1', scope: 's', token: 4, operation: 'charge', retrySafety: 'InspectBeforeRetry', state: 'Planned' };
        expect(await run(plan)).toEqual({ kind: 'Planned', intent });
        expect(await run({ ...plan, operation: 'other' })).toEqual({ kind: 'Duplicate', intent });
        expect(await run({ kind: 'TransitionIntent', intentId: 'nope', to: 'Started' })).toEqual({ kind: 'NotFound' });
        expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Succeeded' })).toEqual({ kind: 'InvalidTransition', from: 'Planned', to: 'Succeeded' });
        expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' })).toEqual({ kind: 'Transitioned', intent: { ...intent, state: 'Started' } });
        expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Unknown' })).toMatchObject({ kind: 'Transitioned' });
        expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Started' })).toEqual({ kind: 'InvalidTransition', from: 'Unknown', to: 'Started' });
        expect(await run({ kind: 'TransitionIntent', intentId: 'i1', to: 'Reconciled' })).toMatchObject({ kind: 'Transitioned' });
      });
    });

    describe('recovery (§228–§240, §269–§276)', () => {
      it('a new recovery epoch invalidates live leases, lifts tokens above the stride and blocks scopes until reconciled', async ({ run, clock }) => {
        await run(acquire('b', 'x', 1000));
        await run(acquire('a', 'y', 1000));
        await run(acquire('c', 'z', 10));
        clock.advance(10);
        expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['a'] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 2 });
        expect(await run(acquire('a', 'y'))).toEqual({ kind: 'Rejected', reason: 'blocked-for-reconciliation' });
        expect(await run(acquire('b', 'x'))).toMatchObject({ kind: 'Acquired', lease: { token: STRIDE + 1 } });
        expect(await run({ kind: 'ReconcileScope', scope: 'b', actor: 'ops' })).toEqual({ kind: 'NotBlocked' });
        expect(await run({ kind: 'ReconcileScope', scope: 'a', actor: 'ops' })).toEqual({ kind: 'Reconciled' });
        expect(await run(acquire('a', 'y'))).toMatchObject({ kind: 'Acquired', lease: { token: STRIDE + 1 } });
        expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 5, blockScopes: [] })).toMatchObject({ recoveryEpoch: 5, invalidated: 2 });
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.recoveryEpoch).toBe(5);
        expect(view.tombstones.filter((t) => t.cause === 'restored').map((t) => [t.scope, t.token])).toEqual([
          ['a', 1],
          ['b', 1],
          ['a', STRIDE + 1],
          ['b', STRIDE + 1],
        ]);
      });
    });

    describe('snapshot and restore (§228–§240, §271–§274)', () => {
      it('a restored image brings back the old state; only a new recovery epoch keeps tokens from repeating', async ({ run, store }) => {
        if (!store.snapshot || !store.restore) throw new Lacks('snapshot() and restore()');
        await run(acquire('s', 'a', 100));
        await run({ kind: 'Release', scope: 's', holder: 'a', token: 1 });
        const image = await store.snapshot();
        const before = (await run({ kind: 'Inspect' })).view;
        await run(acquire('s', 'b', 100));
        await store.restore(image);
        expect((await run({ kind: 'Inspect' })).view).toEqual(before);
        // Without advancing the recovery epoch the restored store would hand out token 2 again
        // (the -unmitigated case); with it, every token lies above the old range.
        expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 2, blockScopes: [] })).toEqual({ kind: 'RecoveryAdvanced', recoveryEpoch: 2, invalidated: 0 });
        expect(await run(acquire('s', 'c', 100))).toMatchObject({ kind: 'Acquired', lease: { token: 2 * STRIDE + 1 } });
      });
    });

    describe('inspect', () => {
      it('lists every part of the state in the rule-book order', async ({ run }) => {
        await run(acquire('zeta', 'h'));
        await run(acquire('Alpha', 'h'));
        await run({ kind: 'Enqueue', scope: 'q', waiterId: 'w', holder: 'h', priority: 0 });
        await run({ kind: 'DefineCapacity', scope: 'cap', capacity: 2 });
        await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['blocked'] });
        const view = (await run({ kind: 'Inspect' })).view;
        expect(view.scopeStates).toEqual([
          { scope: 'Alpha', state: 'Free' },
          { scope: 'blocked', state: 'BlockedForReconciliation' },
          { scope: 'cap', state: 'Free' },
          { scope: 'q', state: 'Waiting' },
          { scope: 'zeta', state: 'Free' },
        ]);
        expect(view.tokens).toEqual([
          { scope: 'Alpha', lastToken: 1 },
          { scope: 'zeta', lastToken: 1 },
        ]);
        expect(view.tombstones.map((t) => t.scope)).toEqual(['Alpha', 'zeta']);
      });
    });
  });
}
