// `sweep --workers n` on a PostgreSQL store: n runs in flight at once in one process, each in a
// schema of its own, taken in order, so the tallies and the first failure are exactly those of
// the same sweep run one at a time (here on an interleaved SQL race mutant, whose failing seeds
// are fixed by the seed alone).

import { describe, expect, test } from 'vitest';
import { usePostgres } from '../postgres/fixture.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCliAsync } from './run-cli.ts';

const scratch = scratchDirs('testbed-pg-workers-');
const pg = usePostgres();

interface SweepJson {
  readonly runs: number;
  readonly failures: number;
  readonly firstFailure: { readonly seed: number; readonly traceHash?: string; readonly replay: string; readonly failureFile: string | null } | null;
  readonly scenarios: ReadonlyArray<{ readonly failures: number }>;
}

async function sweep(workers: string): Promise<{ code: number | null; json: SweepJson }> {
  const args = ['sweep', '--scenario', 'sql-contention', '--seeds', '1..6', '--adapter', 'postgres-mutant:token-from-unlocked-read', '--interleave', '--workers', workers, '--no-shrink', '--json'];
  const result = await runCliAsync(args, { cwd: scratch(), env: { DATABASE_URL: pg.server().connectionString }, timeoutMs: 120_000 });
  expect(result.stdout, result.stderr).not.toBe('');
  return { code: result.code, json: JSON.parse(result.stdout) as SweepJson };
}

describe('sweep --workers on PostgreSQL', () => {
  test('three runs at once give the tallies and first failure of one at a time', async () => {
    const one = await sweep('1');
    const three = await sweep('3');
    expect(one.code).toBe(1);
    expect(three.code).toBe(1);
    expect(one.json.failures).toBeGreaterThan(0);
    expect(three.json.runs).toBe(one.json.runs);
    expect(three.json.failures).toBe(one.json.failures);
    expect(three.json.firstFailure?.seed).toBe(one.json.firstFailure?.seed);
    expect(three.json.firstFailure?.replay).toBe(one.json.firstFailure?.replay);
    expect(three.json.firstFailure?.failureFile).not.toBeNull();
  }, 180_000);
});
