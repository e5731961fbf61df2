// Stores whose fences are not integer tokens (capabilities.fencing, sim/fence-ids.ts): an opaque
// fence (a string naming one grant) is sent back to the store wherever a command carries a token,
// and judged on reuse, not order; a store with no fence at all is judged on everything but the
// order of its tokens. Both are caught when they let a stale holder write (000 §24, §25, §281).

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Store, StoreCapabilities, StoreFactory } from '../../adapters/port.ts';
import type { Command, CommandKind } from '../../model/commands.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { coverageOf } from '../../sim/coverage.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';

const LEASES: ReadonlyArray<CommandKind> = ['Acquire', 'Renew', 'Release', 'Mutate'];
type Json = Record<string, unknown>;

/** Every field named in `keys`, anywhere in `value`, replaced by `f(field, parent)` (or removed when it answers undefined). */
function mapKeys(value: unknown, keys: ReadonlyArray<string>, f: (field: unknown, parent: Json) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, keys, f));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value as Json)) {
    const next = keys.includes(key) ? f(field, value as Json) : mapKeys(field, keys, f);
    if (next !== undefined) out[key] = next;
  }
  return out;
}

/** A lease-only store over the memory store whose commands and answers pass through `translate`. */
function translated(name: string, capabilities: StoreCapabilities, translate: { command(c: Command): Command; answer(o: unknown, c: Command): unknown }): StoreFactory {
  return async (options) => {
    const base = await createMemoryStore(options);
    const store: Store = {
      name,
      capabilities: { commands: LEASES, ...capabilities },
      execute: (async (command: Command) => translate.answer(await base.execute(translate.command(command)), command)) as Store['execute'],
      close: () => base.close(),
    };
    return store;
  };
}

/** Opaque fences: each grant's token becomes a string with no order (`sameForEveryGrant`: one fence per scope, reused). */
function opaqueStore(received: unknown[], sameForEveryGrant = false): StoreFactory {
  return async (options) => {
    const fences = new Map<string, number>();
    const latest = new Map<string, number>();
    const fenceOf = (scope: string, token: number): string => {
      const fence = sameForEveryGrant ? `job:${scope}` : `job:${scope}:${((token * 2654435761) >>> 0).toString(36)}`;
      fences.set(fence, token);
      latest.set(scope, Math.max(latest.get(scope) ?? 0, token));
      return fence;
    };
    const inner = translated('opaque', { fencing: 'opaque' }, {
      command(c) {
        return mapKeys(c, ['token', 'expectedToken'], (fence) => {
          received.push(fence);
          // A reused fence names whatever grant the scope has now.
          return sameForEveryGrant ? (latest.get((c as unknown as Json).scope as string) ?? -1) : (fences.get(String(fence)) ?? -1);
        }) as Command;
      },
      answer(o, c) {
        return mapKeys(o, ['token', 'currentToken'], (token, parent) => (typeof token === 'number' ? fenceOf(String(parent.scope ?? (c as unknown as Json).scope), token) : token));
      },
    });
    return inner(options);
  };
}

/** No fences: answers carry no token; a renewal, release or write is checked against the scope's last holder (`checksHolder`; a write not at all without it). */
function fencelessStore(checksHolder: boolean): StoreFactory {
  return async (options) => {
    const current = new Map<string, { holder: string; token: number }>();
    const inner = translated('fenceless', { fencing: 'none' }, {
      command(c) {
        if (c.kind !== 'Renew' && c.kind !== 'Release' && c.kind !== 'Mutate') return c;
        const lease = current.get(c.scope);
        const own = lease !== undefined && (lease.holder === c.holder || (c.kind === 'Mutate' && !checksHolder)) ? lease.token : 0;
        return c.kind === 'Renew' ? { ...c, expectedToken: own } : { ...c, token: own };
      },
      answer(o) {
        const lease = (o as { lease?: { scope: string; holder: string; token: number } }).lease;
        if (lease !== undefined) current.set(lease.scope, { holder: lease.holder, token: lease.token });
        return mapKeys(o, ['token', 'currentToken'], () => undefined);
      },
    });
    return inner(options);
  };
}

async function runs(factory: StoreFactory, scenario: string, seeds: number): Promise<SimRunResult[]> {
  const out: SimRunResult[] = [];
  for (let seed = 1; seed <= seeds; seed++) out.push(await runScenario({ scenario: loadScenario(scenario), seed, store: { name: 'fences', factory } }));
  return out;
}

const reached = (results: ReadonlyArray<SimRunResult>, kind: string): boolean => results.some((r) => coverageOf(r.history).outcomes.includes(`Mutate:${kind}`));

describe('opaque fences', () => {
  test('a store that fences by an opaque string passes, is sent its own fences back, and the history says what fenced it', async () => {
    const received: unknown[] = [];
    const results = await runs(opaqueStore(received), 'paused-holder-expiry', 8);
    for (const r of results) expect(r.violations, `seed ${r.seed}`).toEqual([]);
    expect(results.every((r) => r.valid === true)).toBe(true);
    expect(reached(results, 'Accepted') && reached(results, 'StaleFence')).toBe(true);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((fence) => typeof fence === 'string' && fence.startsWith('job:'))).toBe(true);
    expect(results[0]!.history.find((e) => e.type === 'truth' && e.f === 'fencing')?.value).toEqual({ kind: 'opaque' });
  });

  test('a store that gives every grant of a scope the same fence is caught reusing it', async () => {
    const results = await runs(opaqueStore([], true), 'paused-holder-expiry', 10);
    const failing = results.filter((r) => r.valid === false);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.flatMap((r) => r.violations.map((v) => v.invariant))).toContain('fencing-monotonic');
    expect(failing.flatMap((r) => r.violations.map((v) => v.message)).join('\n')).toMatch(/reused/);
  });
});

describe('no fences', () => {
  test('a store that checks the holder of a write passes; the order of tokens it never had is not judged', async () => {
    // (Seed 9 fails: a delayed heartbeat of an earlier lease renews the holder's next one, the race the next test is about.)
    const results = await runs(fencelessStore(true), 'paused-holder-expiry', 8);
    for (const r of results) expect(r.violations, `seed ${r.seed}`).toEqual([]);
    expect(reached(results, 'Accepted') && reached(results, 'StaleFence')).toBe(true);
    expect(results[0]!.unjudged).toContainEqual({ invariant: 'fencing-monotonic', lacks: ['fencing tokens'] });
  });

  test('a store that knows a lease only by its holder is caught when a holder name outlives a lease (001 §12–13)', async () => {
    // Host-style names are kept across restarts: a renewal or write of an earlier incarnation is the holder's now.
    const results = await runs(fencelessStore(true), 'stable-holder-names', 5);
    const failing = results.filter((r) => r.valid === false);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.flatMap((r) => r.violations.map((v) => v.invariant))).toContain('lease-exclusive');
  });
});
