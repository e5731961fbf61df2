// `testbed stress` on stores whose fences are not integers (capabilities.fencing; campaign/stress/
// checks/): a correct store with opaque fences (UUID-like strings) and one without fences pass
// (exit 0), each naming what its fences leave unjudged; an opaque store that accepts a stalled
// holder's write after another holder took the lease is caught by the real-time order of the
// grants (accepted-writes, 000 §25–§30), and one that gives every lease of a scope the same fence
// by its reuse (fencing-monotonic, 000 §24), exit 1.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-stress-fences-');
const FIXTURES = path.resolve(import.meta.dirname, '../fences/fixtures');

interface StressJson {
  readonly operations: number;
  readonly violationCount: number;
  readonly violationsByInvariant: Readonly<Record<string, number>>;
  readonly fencing: string;
  readonly unjudged: ReadonlyArray<{ readonly invariant: string; readonly why: string }>;
}

async function stress(fixture: string, seed: number, duration = '1s') {
  const result = await runCliAsync(['stress', '--adapter', path.join(FIXTURES, fixture), '--seed', String(seed), '--duration', duration, '--json'], { cwd: scratch(), timeoutMs: 90_000 });
  expect(result.code === 0 || result.code === 1, result.stderr).toBe(true);
  return { code: result.code, json: JSON.parse(result.stdout) as StressJson };
}

describe('stress on fences that are not integers', () => {
  test('a correct store with opaque fences passes, its fences judged on reuse and not on order', async () => {
    for (const seed of [1, 2]) {
      const { code, json } = await stress('opaque-memory.ts', seed);
      expect(json.violationsByInvariant, `seed ${seed}`).toEqual({});
      expect(json.operations).toBeGreaterThan(100);
      expect(json.fencing).toBe('opaque');
      expect(json.unjudged.map((u) => u.invariant)).toEqual(['fencing-monotonic']);
      expect(code).toBe(0);
    }
  }, 60_000);

  test('a correct store without fences passes; fencing-monotonic and the fence of a Busy answer are not judged', async () => {
    const { code, json } = await stress('fenceless-memory.ts', 1);
    expect(json.violationsByInvariant).toEqual({});
    expect(json.unjudged.map((u) => u.invariant)).toEqual(['fencing-monotonic', 'no-phantom-lease']);
    expect(code).toBe(0);
  }, 60_000);

  test("an opaque store that accepts a stalled holder's write after another holder took the lease is caught as accepted-writes", async () => {
    const seen: string[] = [];
    for (let seed = 1; seed <= 6; seed++) {
      const { code, json } = await stress('opaque-stale-write.ts', seed, '3s');
      if ((json.violationsByInvariant['accepted-writes'] ?? 0) > 0) {
        expect(code).toBe(1);
        return;
      }
      seen.push(`seed ${seed}: ${JSON.stringify(json.violationsByInvariant)}`);
    }
    expect.fail(`no stale write was caught: ${seen.join('; ')}`);
  }, 90_000);

  test('an opaque store that gives every lease of a scope one fence is caught reusing it', async () => {
    const result = await runCliAsync(['stress', '--adapter', path.join(FIXTURES, 'opaque-reused-fence.ts'), '--seed', '1', '--duration', '1s'], { cwd: scratch(), timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^fencing-monotonic: scope \S+: token \d+ issued twice/m);
  }, 60_000);
});
