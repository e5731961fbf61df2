// The store port's contract in every simulated run (sim/port-contract.ts): an answer that is not
// an outcome of the command, a malformed token, or an error other than the port's infrastructure
// errors is a `port-contract` finding naming the command and the process, never a crash.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Store, StoreFactory } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { isOutcomeOf } from '../../model/outcome-kinds.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { contractBreach } from '../../sim/port-contract.ts';
import { writeMemoryModule } from '../cli/memory-module.ts';
import { runCli } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-contract-');

function answering(kind: Command['kind'], answer: (command: Command) => unknown): StoreFactory {
  return async (options) => {
    const base = await createMemoryStore(options);
    return {
      name: 'odd',
      execute: (async (command: Command) => (command.kind === kind ? answer(command) : base.execute(command))) as Store['execute'],
      close: () => base.close(),
    };
  };
}

describe('contractBreach', () => {
  const acquire: Command = { kind: 'Acquire', scope: 's', holder: 'A', ttlMs: 100 };
  test('accepts every outcome kind of the command and nothing else', () => {
    expect(contractBreach(acquire, { kind: 'Busy', holder: 'B', token: 2, expiresAt: 5 })).toBeNull();
    expect(contractBreach(acquire, { kind: 'Nonsense' })).toMatch(/not an outcome of Acquire \(one of Acquired, Busy, Rejected, Fenced\)/);
    expect(contractBreach(acquire, { kind: 'Released', token: 1 })).toMatch(/not an outcome of Acquire/);
    expect(contractBreach(acquire, null)).toMatch(/not an outcome object/);
    expect(contractBreach(acquire, 'Acquired')).toMatch(/not an outcome object/);
    expect(contractBreach(acquire, Object.assign([], { kind: 'Busy' }))).toMatch(/not an outcome object/);
  });

  test('isOutcomeOf tells an outcome of the command by its kind, as the contract does', () => {
    expect(isOutcomeOf(acquire, { kind: 'Busy', holder: 'B', token: 2, expiresAt: 5 })).toBe(true);
    for (const answer of [{ kind: 'Released' }, { kind: 'Nonsense' }, {}, null, 'Acquired', Object.assign([], { kind: 'Busy' })]) expect(isOutcomeOf(acquire, answer), JSON.stringify(answer)).toBe(false);
  });

  test('a lease token must be a positive safe integer', () => {
    const lease = (token: unknown) => ({ kind: 'Acquired', lease: { scope: 's', holder: 'A', token, acquiredAt: 0, expiresAt: 100 } });
    expect(contractBreach(acquire, lease(3))).toBeNull();
    for (const token of ['3', 0, -1, 1.5, 2 ** 60]) expect(contractBreach(acquire, lease(token)), String(token)).toMatch(/positive safe integer/);
  });
});

describe('in a run', () => {
  test('a store answering with a kind the port does not know is a finding, not a pass', async () => {
    const result = await runScenario({ scenario: loadScenario('stale-holder'), seed: 1, store: { name: 'nonsense', factory: answering('Acquire', () => ({ kind: 'Nonsense' })) } });
    expect(result.valid).toBe(false);
    expect(result.violations.find((v) => v.invariant === 'port-contract')?.message).toMatch(/^Acquire by \S+ at store time \d+: the store answered \{"kind":"Nonsense"\}/);
  });

  test('a store that throws is a finding naming what it threw; the run goes on', async () => {
    const factory = answering('Mutate', () => {
      throw new TypeError('cannot read properties of undefined');
    });
    const result = await runScenario({ scenario: loadScenario('stale-holder'), seed: 1, store: { name: 'throws', factory } });
    expect(result.valid).toBe(false);
    expect(result.violations.find((v) => v.invariant === 'port-contract')?.message).toMatch(/Mutate by \S+ at store time \d+: the store threw TypeError: cannot read properties of undefined/);
    expect(result.operations).toBeGreaterThan(5);
  });

  test('testbed run on such a module exits 1 with the finding and a replay line, no stack trace', () => {
    const dir = scratch();
    const module = writeMemoryModule(dir, {
      file: 'nonsense.mjs',
      store: `{ name: 'nonsense', execute: async (command) => ({ kind: 'Nonsense' }), close: () => base.close() }`,
    });
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', module, '--no-shrink'], { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/port-contract: \w+ by \S+ at store time \d+: the store answered \{"kind":"Nonsense"\}, which is not an outcome of/);
    expect(result.stdout).toMatch(/^replay: npx testbed run --scenario stale-holder --seed 1 --adapter /m);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
  });
});
