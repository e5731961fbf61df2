// Concurrency stress on the real server (seed 000 §24, §78, §82, §93–§98, §47): 32 clients on
// separate connections contend for the same scopes, semaphore and idempotency keys with random
// pauses, under database time. Afterwards the recorded outcomes and the Inspect view show at most
// one owner at any time per scope, strictly increasing tokens, capacity never exceeded and no
// request with another digest ever accepted for a key.

import { expect, test } from 'vitest';
import type { Command } from '../../model/commands.ts';
import type { Lease, Outcome } from '../../model/outcomes.ts';
import type { Store } from '../../adapters/port.ts';
import { usePostgres } from './fixture.ts';

const pgServer = usePostgres();

const CLIENTS = 32;
const RUN_MS = 3_000;
const SCOPES = ['s1', 's2', 's3'];
const CAPACITY = 3;
const KEYS = ['k1', 'k2', 'k3'];

interface Recorded {
  readonly command: Command;
  readonly outcome: Outcome;
}

function pick<T>(items: ReadonlyArray<T>): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

const pause = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));

async function client(store: Store, id: number, deadline: number, log: Recorded[]): Promise<void> {
  const run = async (command: Command): Promise<Outcome> => {
    const outcome = await store.execute(command);
    log.push({ command, outcome });
    return outcome;
  };
  let n = 0;
  while (Date.now() < deadline) {
    n++;
    const dice = Math.random();
    if (dice < 0.45) {
      const scope = pick(SCOPES);
      const got = await run({ kind: 'Acquire', scope, holder: `c${id}`, ttlMs: 20 + Math.floor(Math.random() * 60) });
      if (got.kind !== 'Acquired') continue;
      const token = got.lease.token;
      await pause(10);
      if (Math.random() < 0.5) await run({ kind: 'Renew', scope, holder: `c${id}`, expectedToken: token, ttlMs: 40 });
      await run({ kind: 'Mutate', scope, aggregate: 'agg', holder: `c${id}`, token, expectedVersion: Math.floor(Math.random() * 3) });
      await pause(10);
      if (Math.random() < 0.8) await run({ kind: 'Release', scope, holder: `c${id}`, token });
    } else if (dice < 0.55) {
      await run({ kind: 'AcquireAll', scopes: [pick(SCOPES), pick(SCOPES)].filter((s, i, a) => a.indexOf(s) === i).reverse(), holder: `c${id}`, ttlMs: 30 });
    } else if (dice < 0.75) {
      // Expiry only (no release), so each grant's interval is exactly [expiresAt - ttl, expiresAt).
      await run({ kind: 'AcquirePermit', scope: 'sem', permitId: `p${id}-${n}`, holder: `c${id}`, units: 1 + Math.floor(Math.random() * 2), ttlMs: 30 });
    } else if (dice < 0.8) {
      await run({ kind: 'Reserve', scope: 'sem', reservationId: `r${id}-${n}`, owner: `c${id}`, units: 1, ttlMs: 30 });
    } else {
      const key = pick(KEYS);
      const ref = { tenant: 't', operation: 'pay', subject: 'order', key, digest: `d${id % 2}` };
      const begun = await run({ kind: 'IdempotencyBegin', ...ref, retentionMs: 600_000, retryAfterTerminal: false });
      if (begun.kind === 'New') {
        await pause(5);
        await run({ kind: 'IdempotencyComplete', ...ref, outcome: { kind: 'Succeeded', response: `by c${id}` } });
      }
    }
    await pause(3);
  }
}

test('32 clients contending: one owner at a time, increasing tokens, capacity kept, no digest collision accepted', async () => {
  const schema = pgServer.freshSchema();
  const stores = await Promise.all([...Array(CLIENTS)].map(() => pgServer.store({ time: 'database', schema, poolSize: 1 })));
  try {
    await stores[0]!.execute({ kind: 'DefineCapacity', scope: 'sem', capacity: CAPACITY });
    const log: Recorded[] = [];
    const deadline = Date.now() + RUN_MS;
    await Promise.all(stores.map((store, i) => client(store, i, deadline, log)));
    const view = await stores[0]!.execute({ kind: 'Inspect' });
    expect(log.length).toBeGreaterThan(200);

    // Every granted lease and the end of its ownership: its tombstone (release) if it has one,
    // else the expiry its last renewal set (a renewal may also shorten it), else its own.
    const grants: Lease[] = [];
    const expiry = new Map<string, number>();
    for (const { outcome } of log) {
      if (outcome.kind === 'Acquired') grants.push(outcome.lease);
      if (outcome.kind === 'AcquiredAll') grants.push(...outcome.leases);
      if (outcome.kind === 'Renewed') expiry.set(`${outcome.lease.scope}#${outcome.lease.token}`, outcome.lease.expiresAt);
    }
    const ended = new Map(view.view.tombstones.map((t) => [`${t.scope}#${t.token}`, t.endedAt]));
    const endOf = (lease: Lease): number => {
      const key = `${lease.scope}#${lease.token}`;
      return ended.get(key) ?? expiry.get(key) ?? lease.expiresAt;
    };
    for (const scope of SCOPES) {
      const mine = grants.filter((g) => g.scope === scope).sort((a, b) => a.token - b.token);
      expect(mine.length).toBeGreaterThan(3);
      // One owner per token; tokens strictly increase in grant order; the next owner starts only
      // when the previous ownership has ended, so there is never more than one owner.
      expect(new Set(mine.map((g) => g.token)).size).toBe(mine.length);
      for (let i = 1; i < mine.length; i++) {
        expect(mine[i]!.acquiredAt, `scope ${scope} token ${mine[i]!.token}`).toBeGreaterThanOrEqual(endOf(mine[i - 1]!));
      }
      const last = view.view.tokens.find((t) => t.scope === scope)!.lastToken;
      expect(last).toBeGreaterThanOrEqual(mine[mine.length - 1]!.token);
    }

    // Capacity: at every instant, granted permit units plus pending reservation units <= capacity.
    const intervals: Array<{ from: number; to: number; units: number }> = [];
    for (const { command, outcome } of log) {
      if (outcome.kind === 'Granted' && command.kind === 'AcquirePermit') {
        intervals.push({ from: outcome.permit.expiresAt - command.ttlMs, to: outcome.permit.expiresAt, units: outcome.permit.units });
      }
      if (outcome.kind === 'Reserved') intervals.push({ from: outcome.reservation.createdAt, to: outcome.reservation.expiresAt, units: outcome.reservation.units });
    }
    expect(intervals.length).toBeGreaterThan(10);
    for (const probe of intervals) {
      const inUse = intervals.filter((i) => i.from <= probe.from && probe.from < i.to).reduce((sum, i) => sum + i.units, 0);
      expect(inUse).toBeLessThanOrEqual(CAPACITY);
    }

    // Idempotency: one New per key, and only requests with that digest are ever accepted.
    for (const key of KEYS) {
      const begins = log.filter((r) => r.command.kind === 'IdempotencyBegin' && r.command.key === key);
      const first = begins.filter((r) => r.outcome.kind === 'New');
      expect(first.length).toBeLessThanOrEqual(1);
      if (first.length === 0) continue;
      const digest = (first[0]!.command as Extract<Command, { kind: 'IdempotencyBegin' }>).digest;
      for (const { command, outcome } of begins) {
        const asked = (command as Extract<Command, { kind: 'IdempotencyBegin' }>).digest;
        if (asked === digest) expect(['New', 'InProgress', 'Replay']).toContain(outcome.kind);
        else expect(outcome).toEqual({ kind: 'Conflict', existingDigest: digest });
      }
    }
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}, 60_000);
