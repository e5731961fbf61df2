// `sweep --stop-at-first`: the time to a verdict is the time to the first failure. Seeds are
// visited across scenarios (seed 1 of each, then seed 2), and the sweep ends at the first failing run.

import { expect, test } from 'vitest';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCli } from './run-cli.ts';

const scratch = scratchDirs('testbed-stop-');

interface SweepJson {
  readonly runs: number;
  readonly failures: number;
  readonly stoppedAtFirst: boolean;
  readonly firstFailure: { readonly seed: number; readonly afterMs: number; readonly replay: string } | null;
}

test('a failing sweep stops at its first failure, with the replay line and the time it took', () => {
  const result = runCli(['sweep', '--scenario', 'all', '--seeds', '1..50', '--adapter', 'mutant:semaphore-off-by-one', '--stop-at-first', '--json'], { cwd: scratch() });
  expect(result.code, result.stderr).toBe(1);
  const sweep = JSON.parse(result.stdout) as SweepJson;
  expect(sweep.failures).toBe(1);
  expect(sweep.stoppedAtFirst).toBe(true);
  // Far fewer runs than the whole sweep (every passing scenario x 50 seeds).
  expect(sweep.runs).toBeLessThan(200);
  expect(sweep.firstFailure!.afterMs).toBeGreaterThanOrEqual(0);
  expect(sweep.firstFailure!.replay).toContain('--adapter mutant:semaphore-off-by-one');
});

test('a clean sweep with --stop-at-first runs every seed', () => {
  const result = runCli(['sweep', '--scenario', 'stale-holder', '--seeds', '1..20', '--stop-at-first', '--json'], { cwd: scratch() });
  expect(result.code, result.stderr).toBe(0);
  const sweep = JSON.parse(result.stdout) as SweepJson;
  expect(sweep.runs).toBe(20);
  expect(sweep.stoppedAtFirst).toBe(false);
});

test('--stop-at-first with several worker threads is refused', () => {
  const result = runCli(['sweep', '--scenario', 'stale-holder', '--seeds', '1..20', '--stop-at-first', '--workers', '2'], { cwd: scratch() });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/--stop-at-first runs on one thread/);
});
