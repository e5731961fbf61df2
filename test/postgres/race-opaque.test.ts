// `testbed race` on a PostgreSQL store whose fences are opaque strings, plugged in as a user would
// (test/fences/fixtures/opaque-postgres.ts: the built-in store behind UUID-like fences, keeping its
// data where the testbed tells it): every schedule of every case of its lease kinds passes, exit
// 0, and the summary names what a store without integer fences is not judged on; the same store
// accepting a write under a stale fence (000 §25–§30) fails, exit 1, and its failure file replays
// to the same trace hash, which reads the store's own fences.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();
const scratch = scratchDirs('testbed-race-opaque-');
const FIXTURES = path.resolve(import.meta.dirname, '../fences/fixtures');
const env = () => ({ DATABASE_URL: pg.server().connectionString });

interface RaceJson {
  readonly cases: number;
  readonly exhausted: boolean;
  readonly failing: number;
  readonly fencing: string;
  readonly notJudged: ReadonlyArray<string>;
  readonly failures: ReadonlyArray<{ readonly rule: string; readonly message: string }>;
  readonly failureFile?: string;
}

function race(fixture: string) {
  const args = ['race', '--adapter', path.join(FIXTURES, fixture), '--kinds', 'Acquire,Mutate', '--function-samples', '0', '--workers', '2', '--json', '--out', scratch()];
  return runCliAsync(args, { env: env(), timeoutMs: 600_000 });
}

describe('testbed race on a PostgreSQL store with opaque fences', () => {
  test('a correct store passes every schedule, and the summary says what was not judged', async () => {
    const result = await race('opaque-postgres.ts');
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as RaceJson;
    expect({ failing: json.failing, exhausted: json.exhausted, fencing: json.fencing }).toEqual({ failing: 0, exhausted: true, fencing: 'opaque' });
    expect(json.cases).toBeGreaterThan(5);
    expect(json.notJudged[0]).toMatch(/^the order of the store's fences/);
  }, 600_000);

  test('a store that accepts a write under a stale fence fails, and the failure replays exactly', async () => {
    const result = await race('opaque-postgres-stale-write.ts');
    expect(result.code, result.stderr).toBe(1);
    const json = JSON.parse(result.stdout) as RaceJson;
    expect(json.failures.some((f) => /Mutate answered \{"kind":"Accepted"/.test(f.message))).toBe(true);
    const replay = await runCliAsync(['replay', json.failureFile!, '--adapter', path.join(FIXTURES, 'opaque-postgres-stale-write.ts')], { env: env(), timeoutMs: 120_000 });
    expect(replay.code, replay.stderr).toBe(1);
    expect(replay.stdout).toContain('trace hash matches the failure file');
  }, 600_000);
});
