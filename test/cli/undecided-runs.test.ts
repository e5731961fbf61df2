// `sweep` names its undecided runs (a verdict 'unknown' that is not untested): the JSON document
// lists them as { scenario, seed, reason } (the first 100; `undecided` is the total), the text
// names the first 20 and counts the rest, and a sweep on worker threads names the same runs.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-undecided-');

/**
 * fairness-starvation with a liveness bound far shorter than its waits: the run ends one bound
 * after the liveness phase starts, so a waiter enqueued after that start and still waiting at the
 * end is cut off before its deadline, and the liveness checker cannot decide (almost every seed).
 */
function cutWaiters(dir: string): string {
  const file = path.join(dir, 'cut-waiters.json');
  writeFileSync(file, JSON.stringify({ ...loadScenario('fairness-starvation'), name: 'cut-waiters', liveness: { boundMs: 1000 } }));
  return file;
}

interface SweepJson {
  runs: number;
  failures: number;
  undecided: number;
  untested: number;
  undecidedRuns: ReadonlyArray<{ scenario: string; seed: number; reason: string }>;
  seedsPerSecond?: number;
  firstFailure: { seed: number; afterMs?: number } | null;
}

const CUT = /^liveness: waiter \S+ on scope \S+ \(#\d+\) still waiting when the history ends at time \d+, before its deadline \d+(; and \d+ more)?$/;

test('a sweep lists the undecided runs it counted, on one thread and on worker threads alike', async () => {
  // One scenario file (the replay lines name it); each sweep writes its failure file in a directory of its own.
  const scenario = cutWaiters(scratch());
  const [oneDir, twoDir, textDir] = [scratch(), scratch(), scratch()];
  const args = ['sweep', '--scenario', scenario, '--seeds', '1..120', '--no-shrink', '--json'];
  const [one, two, text] = await Promise.all([
    runCliAsync([...args, '--workers', '1'], { cwd: oneDir }),
    runCliAsync([...args, '--workers', '2'], { cwd: twoDir }),
    runCliAsync(['sweep', '--scenario', scenario, '--seeds', '1..21', '--workers', '1'], { cwd: textDir }),
  ]);

  // 120 seeds: more undecided runs than the document names; a few seeds fail outright (exit 1).
  expect(one.code, one.stderr).toBe(1);
  const sweep = JSON.parse(one.stdout) as SweepJson;
  expect(sweep.undecided).toBeGreaterThan(100);
  expect(sweep.undecidedRuns).toHaveLength(100);
  const seeds = sweep.undecidedRuns.map((run) => run.seed);
  expect(seeds).toEqual([...seeds].sort((a, b) => a - b));
  expect(new Set(seeds).size).toBe(seeds.length);
  expect(seeds).not.toContain(sweep.firstFailure!.seed);
  for (const run of sweep.undecidedRuns) {
    expect(run.scenario).toBe('cut-waiters');
    expect(run.reason).toMatch(CUT);
  }

  // The pooled sweep takes its runs in the same order: the same runs named, the same document.
  expect(two.code, two.stderr).toBe(1);
  const pooled = JSON.parse(two.stdout) as SweepJson;
  for (const doc of [sweep, pooled]) {
    delete doc.seedsPerSecond;
    delete doc.firstFailure!.afterMs;
  }
  expect(pooled).toEqual(sweep);

  // 21 seeds, all undecided (exit 3): the text names 20 and counts the last.
  expect(text.code, text.stderr).toBe(3);
  const named = text.stdout.split('\n').filter((line) => line.startsWith('undecided: '));
  expect(named).toHaveLength(20);
  named.forEach((line, i) => {
    const match = /^undecided: cut-waiters seed (\d+) \((.*)\)$/.exec(line);
    expect(match, line).not.toBeNull();
    expect(Number(match![1])).toBe(i + 1);
    expect(match![2]).toMatch(CUT);
  });
  expect(text.stdout).toContain('21 runs in ');
  expect(text.stdout).toContain(': 0 failing, 21 undecided\n');
  expect(text.stdout).toContain('\n… and 1 more\n');
});
