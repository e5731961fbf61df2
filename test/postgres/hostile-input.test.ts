// Hostile input: SQL metacharacters, NUL bytes, 10 KB strings, lone surrogates, mixed scripts and
// emoji are either rejected with a typed outcome (the rule book's id rules: NUL is a control
// character, so an id holding it is Rejected invalid-argument) or stored and read back exactly,
// and the PostgreSQL store answers exactly as the reference memory store does.

import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { createMemoryStoreSync } from '../../adapters/memory.ts';
import type { Command } from '../../model/commands.ts';
import { isValidId } from '../../model/validation.ts';
import { usePostgres } from './fixture.ts';

const pgServer = usePostgres();

const HOSTILE = [
  "'; DROP TABLE lease; --",
  'x"); DELETE FROM scope_counter; --',
  '$1 $2 ::text %s %% \\ \\\\ \\0 \\u0000',
  'nul\u0000byte',
  '\u0000',
  'lone \ud800 high',
  'lone \udc00 low',
  'Ünïcödé Ελληνικά 日本語 العربية עברית 🚀👩‍👩‍👧',
  'tab\there',
  'del\u007f',
  'x'.repeat(256),
  'y'.repeat(10 * 1024),
  ' ',
];

describe('hostile input', () => {
  test('every hostile string is rejected with a typed outcome or stored and read back exactly, as the reference model does', async () => {
    let t = 1_000;
    const time = { now: () => t };
    const store = await pgServer.store({ time });
    const reference = createMemoryStoreSync({ time });
    const run = async (command: Command) => {
      const expected = reference.executeSync(command);
      const actual = await store.execute(command);
      expect(actual, JSON.stringify(command).slice(0, 200)).toEqual(expected);
      return actual;
    };
    try {
      for (const [i, text] of HOSTILE.entries()) {
        t += 10;
        const acquired = await run({ kind: 'Acquire', scope: text, holder: text, ttlMs: 1000 });
        expect(acquired.kind).toBe(isValidId(text) ? 'Acquired' : 'Rejected');
        if (acquired.kind === 'Rejected') expect(acquired.reason).toBe('invalid-argument');
        // Fields the rule book does not validate hold any string.
        const scope = `s${i}`;
        await run({ kind: 'Acquire', scope, holder: 'h', ttlMs: 1000 });
        await run({ kind: 'Handoff', scope, holder: 'h', token: 1, newHolder: text, ttlMs: 1000 });
        await run({ kind: 'Mutate', scope, aggregate: text, holder: text, token: 2, expectedVersion: 0 });
        await run({ kind: 'ForceRelease', scope, expectedToken: 2, actor: text, reason: `${text}!`, privileged: true });
        await run({ kind: 'PlanIntent', intentId: text, scope: text, token: 3, operation: text, retrySafety: 'ManualOnly' });
        await run({ kind: 'AdvanceRoleEpoch', role: text, epoch: 1 });
        await run({ kind: 'Enqueue', scope: text, waiterId: text, holder: text, priority: 0 });
        await run({ kind: 'CancelWait', scope: text, waiterId: text });
        await run({ kind: 'DefineCapacity', scope: text, capacity: 2 });
        const ref = { tenant: text, operation: 'op', subject: 'sub', key: text, digest: text };
        await run({ kind: 'IdempotencyBegin', ...ref, retentionMs: 60_000, retryAfterTerminal: false });
        await run({ kind: 'IdempotencyComplete', ...ref, outcome: { kind: 'Succeeded', response: text } });
        await run({ kind: 'IdempotencyBegin', ...ref, retentionMs: 60_000, retryAfterTerminal: false });
        await run({ kind: 'IdempotencyBegin', ...ref, digest: `${text}?`, retentionMs: 60_000, retryAfterTerminal: false });
      }
      await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: HOSTILE });
      for (const text of HOSTILE) await run({ kind: 'ReconcileScope', scope: text, actor: text });
      const view = await run({ kind: 'Inspect' });
      expect(view.kind).toBe('Snapshot');
      // The store is intact: the injection attempts were data, never SQL.
      expect(isDeepStrictEqual(view, reference.executeSync({ kind: 'Inspect' }))).toBe(true);
      const snapshot = await store.snapshot!();
      await store.restore!(snapshot);
      expect(await store.execute({ kind: 'Inspect' })).toEqual(view);
    } finally {
      await store.close();
    }
  });
});
