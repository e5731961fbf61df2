// The testbed drives an in-process library's own clock and timers through the clock kit
// (examples/sweeper-lock/, adapters/clock-kit.ts; 000 §79: the store's clock decides expiry): the
// lock library's sweeper runs at virtual times, so the sweeper bug (a renewed lock deleted at its
// first deadline) is found by `sweep` and by `check`, the correct library passes both, and the same
// seed gives the same trace hash.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadScenario, runScenario, seedRange, sweepScenario } from '../../index.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import type { LockTable } from '../../examples/sweeper-lock/lock-library.ts';
import { openLockStore } from '../../examples/sweeper-lock/lock-store.ts';
import { runCliAsync } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-sweeper-lock-');
const example = path.resolve(import.meta.dirname, '../../examples/sweeper-lock');
const SCENARIO = 'stale-holder';

/** The library's store, keeping every table it opens so that the test can read its sweeper's stats. */
function observed(sweep: 'expired' | 'first-deadline'): { factory: StoreFactory; tables: LockTable[] } {
  const tables: LockTable[] = [];
  return { tables, factory: (options) => openLockStore(options, sweep, (table) => tables.push(table)) };
}

describe('a library with a sweeper, driven by the clock kit', () => {
  test('the correct sweeper passes 30 seeds, and it ran at virtual times and deleted expired locks', async () => {
    const { factory, tables } = observed('expired');
    const sweep = await sweepScenario({ scenario: loadScenario(SCENARIO), seeds: seedRange(1, 30), store: { name: 'sweeper-lock', factory } });
    expect(sweep.firstFailure?.violations ?? []).toEqual([]);
    expect(sweep.undecided).toBe(0);
    const sweeps = tables.reduce((n, t) => n + t.stats.sweeps, 0);
    const swept = tables.reduce((n, t) => n + t.stats.swept, 0);
    // A run of stale-holder spans about 14 s of store time; the sweeper runs every 100 ms of it.
    expect(sweeps).toBeGreaterThan(30 * 100);
    expect(swept).toBeGreaterThan(0);
  }, 120_000);

  test('a run cancelled while its lease is confirmed starts no effect, on a store without intents (000 §116)', async () => {
    // Without PlanIntent the effect starts at the provider call: seed 10 once met a cancellation
    // that arrived during the confirmation, and the effect went out anyway (concurrency-group).
    const { factory } = observed('expired');
    const sweep = await sweepScenario({ scenario: loadScenario('cancel-previous-non-supersedable'), seeds: seedRange(1, 30), store: { name: 'sweeper-lock', factory } });
    expect(sweep.firstFailure?.violations ?? []).toEqual([]);
    expect(sweep.undecided).toBe(0);
  }, 120_000);

  test('the sweeper bug is found: a renewed lock deleted under its holder and granted to another', async () => {
    const { factory } = observed('first-deadline');
    const sweep = await sweepScenario({ scenario: loadScenario(SCENARIO), seeds: seedRange(1, 30), store: { name: 'early-sweep', factory } });
    expect(sweep.failures).toBeGreaterThan(0);
    expect(sweep.firstFailure!.violations.map((v) => v.invariant)).toContain('lease-exclusive');
  }, 120_000);

  test('the same seed gives the same trace hash with the kit', async () => {
    const run = () => runScenario({ scenario: loadScenario(SCENARIO), seed: 3, store: { name: 'sweeper-lock', factory: observed('expired').factory } });
    const [first, second] = [await run(), await run()];
    expect(first.valid).toBe(true);
    expect(second.traceHash).toBe(first.traceHash);
    const buggy = () => runScenario({ scenario: loadScenario(SCENARIO), seed: 1, store: { name: 'early-sweep', factory: observed('first-deadline').factory } });
    const [a, b] = [await buggy(), await buggy()];
    expect(a.valid).toBe(false);
    expect(b.traceHash).toBe(a.traceHash);
  }, 120_000);

  test('npx testbed sweep and check find the bug (exit 1, a replay line) and pass the correct library (exit 0)', async () => {
    const cwd = scratch();
    const testbed = (args: string[]) => runCliAsync(args, { cwd, timeoutMs: 90_000 });
    const [good, bad, checkGood, checkBad] = await Promise.all([
      testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..10', '--adapter', path.join(example, 'store.ts')]),
      testbed(['sweep', '--scenario', SCENARIO, '--seeds', '1..10', '--adapter', path.join(example, 'early-sweep.ts'), '--no-shrink']),
      testbed(['check', '--runs', '500', '--seed', '7', '--adapter', path.join(example, 'store.ts')]),
      testbed(['check', '--runs', '500', '--seed', '7', '--adapter', path.join(example, 'early-sweep.ts')]),
    ]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/lease-exclusive/);
    expect(bad.stdout).toMatch(/^replay: npx testbed run --scenario stale-holder --seed \d+ --adapter \S+early-sweep\.ts$/m);
    expect(checkGood.code, checkGood.stdout + checkGood.stderr).toBe(0);
    expect(checkBad.code, checkBad.stderr).toBe(1);
    expect(checkBad.stdout).toMatch(/replay: npx testbed check --adapter \S+early-sweep\.ts --seed 7 --path v3:/);
  }, 120_000);

  test('npx testbed stress runs clients at once on the wall clock, and the correct library passes', async () => {
    // On the wall clock the store gets one of its own, not the probe opened at virtual time 0 (whose
    // sweeper would have decades to catch up on), and calls at once advance the clock one at a time.
    const stress = await runCliAsync(['stress', '--adapter', path.join(example, 'store.ts'), '--clients', '4', '--duration', '1s', '--seed', '1', '--json'], { cwd: scratch(), timeoutMs: 60_000 });
    expect(stress.code, stress.stdout + stress.stderr).toBe(0);
    const result = JSON.parse(stress.stdout) as { violationCount: number; byStatus: { ok: number; error: number } };
    expect(result).toMatchObject({ violationCount: 0, byStatus: { error: 0 } });
    expect(result.byStatus.ok).toBeGreaterThan(0);
  }, 120_000);
});
