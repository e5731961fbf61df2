// `sweep --workers n` on a user's store: n runs in flight at once in this process, each on a store of
// its own from the factory, taken in order, so that the tallies and the first failure are those
// of one run at a time.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-module-workers-');
const MEMORY = path.resolve(import.meta.dirname, '../../adapters/memory.ts');
const MUTANTS = path.resolve(import.meta.dirname, '../../mutants/index.ts');

/**
 * The memory store (or a mutant of it) as a module whose calls each take a little wall time, and
 * that writes to `log` how many of its stores were open at once, each time one opens.
 */
function slowModule(dir: string, log: string, mutant: string | null): string {
  const file = path.join(dir, `slow-${mutant ?? 'memory'}.mts`);
  const base = mutant === null ? 'createMemoryStore' : `mutantStoreFactory(findMutant(${JSON.stringify(mutant)}), createMemoryStore)`;
  writeFileSync(
    file,
    `import { appendFileSync } from 'node:fs';
import createMemoryStore from ${JSON.stringify(MEMORY)};
import { findMutant, mutantStoreFactory } from ${JSON.stringify(MUTANTS)};
let open = 0;
export default async (options) => {
  open++;
  appendFileSync(${JSON.stringify(log)}, open + '\\n');
  const store = await (${base})(options);
  return {
    name: 'slow',
    execute: async (command) => { await new Promise((r) => setTimeout(r, 1)); return store.execute(command); },
    close: async () => { open--; await store.close(); },
  };
};
`,
  );
  writeFileSync(log, '');
  return file;
}

const mostOpen = (log: string): number => Math.max(0, ...readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number));

interface SweepJson {
  readonly runs: number;
  readonly failures: number;
  readonly firstFailure?: { readonly seed: number; readonly violations: ReadonlyArray<{ readonly message: string }> };
}

describe('sweep --workers on a store module', () => {
  test('runs several at once, each on a store of its own, with the tallies and first failure of one at a time', async () => {
    const dir = scratch();
    const log = path.join(dir, 'open.log');
    const adapter = slowModule(dir, log, 'no-fencing-check');
    const args = ['sweep', '--scenario', 'stale-holder', '--seeds', '1..8', '--adapter', adapter, '--no-shrink', '--json'];
    const one = await runCliAsync([...args, '--workers', '1'], { cwd: dir });
    expect(mostOpen(log)).toBe(1);
    const four = await runCliAsync([...args, '--workers', '4'], { cwd: dir });
    expect(mostOpen(log)).toBeGreaterThanOrEqual(2);
    expect(four.code, four.stderr).toBe(one.code);
    const [a, b] = [JSON.parse(one.stdout) as SweepJson, JSON.parse(four.stdout) as SweepJson];
    expect(one.code).toBe(1);
    expect(a.failures).toBeGreaterThan(0);
    expect(a.firstFailure?.violations.length).toBeGreaterThan(0);
    expect(b.failures).toBe(a.failures);
    expect(b.firstFailure?.seed).toBe(a.firstFailure?.seed);
    expect(b.firstFailure?.violations).toEqual(a.firstFailure?.violations);
  }, 180_000);
});
