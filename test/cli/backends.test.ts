// The built-in store backends as one list (backends/index.ts): every name `--adapter` takes
// belongs to exactly one entry, and what the CLI decides about a store it reads from the entry.
import { describe, expect, it } from 'vitest';
import { backendChoices, backendOf, BACKENDS, defaultAdapter, defaultRaceAdapter, gateStageAdapter, realFaultAdapter } from '../../backends/index.ts';

describe('store backends', () => {
  it('give every name one backend, a module path last', () => {
    const cases: ReadonlyArray<[string, string | undefined]> = [
      ['memory', 'memory'], ['mutant:no-fencing-check', 'mutant'], ['postgres', 'postgres'], ['postgres-mutant:x', 'postgres-mutant'],
      ['exec:python3 s.py', 'exec'], ['./store.ts', 'module'], ['/abs/store.mjs', 'module'], ['store.js', 'module'], ['redis', undefined], ['postgresql', undefined],
    ];
    for (const [spec, kind] of cases) {
      expect(backendOf(spec)?.kind, spec).toBe(kind);
      expect(BACKENDS.filter((b) => b.matches(spec)).length, spec).toBeLessThanOrEqual(1);
    }
  });

  it('say what each can do: only PostgreSQL takes real faults; what keeps data in PostgreSQL interleaves; the gate stages run memory and postgres', () => {
    expect(BACKENDS.filter((b) => b.realFaults).map((b) => b.kind)).toEqual(['postgres']);
    expect(BACKENDS.filter((b) => b.interleavable).map((b) => b.kind)).toEqual(['postgres', 'postgres-mutant', 'module']);
    expect(BACKENDS.filter((b) => b.replays === 'always').map((b) => b.kind)).toEqual(['memory', 'mutant']);
    expect([gateStageAdapter('memory'), gateStageAdapter('database'), realFaultAdapter(), defaultAdapter(), defaultRaceAdapter()]).toEqual(['memory', 'postgres', 'postgres', 'memory', 'postgres']);
  });

  it('name themselves in messages from the list', () => {
    expect(backendChoices()).toBe('memory, mutant:<name>, postgres, postgres-mutant:<name>, exec:<command> or <path to a store module>');
  });
});
