// The store is told what happens to the processes and their sessions (adapters/port.ts
// `lifecycle`, sim/store-sessions.ts), in order, at the virtual instant it happens; each call says
// which process makes it; a lease the store says ended with its session is recorded as ground
// truth; and a store without `lifecycle` runs exactly as before.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { CallContext, LifecycleEvent, Store, StoreFactory } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { isTruth } from '../../model/checkers/operations.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

interface Told {
  readonly events: Array<LifecycleEvent & { readonly at: number }>;
  readonly calls: Array<{ readonly kind: Command['kind']; readonly call: CallContext | undefined }>;
}

/** The memory store, listening: it ends every lease a crashed or cut-off process holds. */
function listening(told: Told, endLeases: boolean, leasesOnly = true): StoreFactory {
  return async (options) => {
    const inner = await createMemoryStore(options);
    const held = new Map<string, { scope: string; holder: string; token: number }>();
    const store: Store = {
      name: 'memory (listening)',
      capabilities: leasesOnly ? { referenceSemantics: false, commands: ['Acquire', 'Renew', 'Release', 'Mutate'] } : { referenceSemantics: false },
      async execute(command, call) {
        told.calls.push({ kind: command.kind, call });
        const outcome = await inner.execute(command);
        if (outcome.kind === 'Acquired') held.set(outcome.lease.scope, outcome.lease);
        return outcome;
      },
      async lifecycle(event) {
        told.events.push({ ...event, at: options.time === 'database' ? -1 : options.time.now() });
        if (!endLeases || (event.kind !== 'crash' && event.kind !== 'cut-off')) return undefined;
        const ended = [...held.values()].filter((lease) => lease.holder === event.process);
        for (const lease of ended) held.delete(lease.scope);
        return { ended };
      },
      close: () => inner.close(),
      snapshot: () => inner.snapshot!(),
      restore: (image) => inner.restore!(image),
    };
    return store;
  };
}

describe('lifecycle of processes and sessions', () => {
  test('cut-offs, reconnections, crashes and restarts reach the store in the order of the fault records, each call names its process', async () => {
    const told: Told = { events: [], calls: [] };
    const result = await runScenario({ scenario: loadScenario('session-loss'), seed: 2, store: { name: 'listening', factory: listening(told, false) } });
    const cutOffs = told.events.filter((e) => e.kind === 'cut-off');
    expect(cutOffs.length).toBeGreaterThan(3);
    // Each cut-off names the node's current process and comes when the partition record does.
    const partitions = result.history.filter((e) => e.type === 'fault' && e.f === 'partition' && ((e.value.from === 'db') !== (e.value.to === 'db')));
    expect(partitions.length).toBeGreaterThanOrEqual(cutOffs.length);
    for (const cut of cutOffs) {
      expect(cut.process).toMatch(new RegExp(`^${cut.node}#\\d+$`));
      expect(partitions.some((p) => p.time === cut.at)).toBe(true);
    }
    // Every node cut off is reconnected, at the latest when the liveness phase heals everything.
    for (const node of new Set(cutOffs.map((c) => c.node))) {
      const mine = told.events.filter((e) => e.node === node && (e.kind === 'cut-off' || e.kind === 'reconnect')).map((e) => e.kind);
      expect(mine.at(-1)).toBe('reconnect');
      expect(mine.filter((k) => k === 'cut-off').length).toBe(mine.filter((k) => k === 'reconnect').length);
    }
    // A retired process is told as ended before its node's next incarnation starts.
    const restarts = told.events.filter((e) => e.kind === 'restart');
    for (const restart of restarts) {
      const [node, incarnation] = restart.process!.split('#');
      const previous = `${node}#${Number(incarnation) - 1}`;
      const ended = told.events.findIndex((e) => e.kind === 'crash' && e.process === previous);
      expect(ended).toBeGreaterThanOrEqual(0);
      expect(ended).toBeLessThan(told.events.indexOf(restart));
    }
    expect(told.calls.length).toBeGreaterThan(50);
    for (const { call } of told.calls) expect(call?.process).toMatch(/^c\d+#\d+$/);
    for (const { call } of told.calls) expect(call!.process.startsWith(`${call!.node}#`)).toBe(true);
  });

  test('a lease the store ends with its session is recorded, and a write under it afterwards is a violation', async () => {
    const told: Told = { events: [], calls: [] };
    const result = await runScenario({ scenario: loadScenario('session-loss'), seed: 2, store: { name: 'listening', factory: listening(told, true) } });
    const ends = result.history.filter((e) => isTruth(e) && e.f === 'session-ended');
    expect(ends.length).toBeGreaterThan(0);
    expect(ends[0]!.value).toMatchObject({ cause: expect.stringMatching(/^(crash|cut-off)$/) });
    // The memory store does not actually drop the lease: its holder goes on writing under it.
    expect(result.valid).toBe(false);
    expect(result.violations.map((v) => v.message).join('\n')).toContain('after that lease ended with its session');
  });

  test('a store without lifecycle gets the same history as before: nothing of sessions is recorded', async () => {
    const plain = await runScenario({ scenario: loadScenario('session-loss'), seed: 2, store: { name: 'memory', factory: createMemoryStore } });
    expect(plain.valid).toBe(true);
    expect(plain.history.some((e) => isTruth(e) && (e.f === 'session-ended' || e.f === 'session-leases'))).toBe(false);
  });

  test('a failover or restore that replaced the durable state ends every session, as a database crash does', async () => {
    const told: Told = { events: [], calls: [] };
    const result = await runScenario({ scenario: loadScenario('db-failover'), seed: 1, store: { name: 'listening', factory: listening(told, false, false) } });
    const replaced = result.history.filter((e) => e.type === 'fault' && (e.f === 'db-failover' || e.f === 'db-restore') && e.value.skipped !== true);
    expect(replaced.length).toBeGreaterThan(0);
    expect(told.events.filter((e) => e.kind === 'database-crash').length).toBeGreaterThanOrEqual(replaced.length);
  });

  test('a store that declares session-bound leases without lifecycle() cannot be run: it says so', async () => {
    const factory: StoreFactory = async (options) => {
      const inner = await createMemoryStore(options);
      return { name: 'forgetful', capabilities: { leaseBound: 'session' }, execute: (c) => inner.execute(c), close: () => inner.close() };
    };
    await expect(runScenario({ scenario: loadScenario('session-loss'), seed: 1, store: { name: 'forgetful', factory } })).rejects.toThrow(/declares session-bound leases .* but has no lifecycle\(\)/);
  });
});
