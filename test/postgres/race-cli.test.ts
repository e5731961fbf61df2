// `testbed race` end to end on a SQL race mutant (000 §25–§30): the whole run and two shards merged
// give the same counts and the same smallest failure, whose failure file `testbed replay`
// reproduces with the same trace hash; PCT samples inside functions find a race inside one
// function the same way from the same seed, also by default after the exploration between
// statements; the built-in store passes the same cases (exit 0).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from '../cli/run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();
const scratch = scratchDirs('testbed-race-');
const env = () => ({ DATABASE_URL: pg.server().connectionString });
const RACE = ['race', '--kinds', 'Release,Acquire', '--workers', '2', '--json'];

/** `testbed replay` of a race failure file fails again (exit 1) with the recorded trace hash. */
async function expectReplaysExactly(failureFile: string): Promise<void> {
  const replay = await runCliAsync(['replay', failureFile], { env: env(), timeoutMs: 120_000 });
  expect(replay.code, replay.stderr).toBe(1);
  expect(replay.stdout).toContain('trace hash matches the failure file');
}

describe('testbed race', () => {
  test('a mutant fails, shards merge into the whole verdict, and the failure replays exactly', async () => {
    const dir = scratch();
    const adapter = ['--adapter', 'postgres-mutant:release-check-then-delete'];
    const whole = await runCliAsync([...RACE, ...adapter, '--out', path.join(dir, 'whole')], { env: env(), timeoutMs: 240_000 });
    expect(whole.code, whole.stderr).toBe(1);
    const wholeJson = JSON.parse(whole.stdout) as { cases: number; schedules: number; failing: number; traceHash: string; failureFile: string };
    for (const shard of ['1/2', '2/2']) {
      const part = await runCliAsync([...RACE, ...adapter, '--shard', shard, '--out', path.join(dir, 'shards')], { env: env(), timeoutMs: 240_000 });
      expect(part.code, part.stderr).toBeLessThanOrEqual(1);
    }
    const merged = await runCliAsync(['merge', path.join(dir, 'shards'), '--out', path.join(dir, 'merged'), '--json'], { env: env(), timeoutMs: 60_000 });
    expect(merged.code, merged.stderr).toBe(1);
    const mergedJson = JSON.parse(merged.stdout) as typeof wholeJson;
    expect({ cases: mergedJson.cases, schedules: mergedJson.schedules, failing: mergedJson.failing, traceHash: mergedJson.traceHash }).toEqual({ cases: wholeJson.cases, schedules: wholeJson.schedules, failing: wholeJson.failing, traceHash: wholeJson.traceHash });
    await expectReplaysExactly(mergedJson.failureFile);
  }, 600_000);

  test('PCT samples stepping inside functions catch a race inside one function, from the same seed the same failure, which replays exactly', async () => {
    const dir = scratch();
    const args = ['race', '--adapter', 'postgres-mutant:release-function-unlocked', '--inside-functions', '--kinds', 'Release,Acquire', '--strategy', 'pct', '--max-schedules', '20', '--stop-at-first', '--workers', '2', '--json'];
    const first = await runCliAsync([...args, '--out', path.join(dir, 'a')], { env: env(), timeoutMs: 240_000 });
    expect(first.code, first.stderr).toBe(1);
    const json = JSON.parse(first.stdout) as { strategy: string; pctDepth: number; exhausted: boolean; traceHash: string; failureFile: string; failures: Array<{ kinds: string[]; state: string }> };
    expect({ strategy: json.strategy, pctDepth: json.pctDepth, exhausted: json.exhausted }).toEqual({ strategy: 'pct', pctDepth: 3, exhausted: false });
    const again = await runCliAsync([...args, '--out', path.join(dir, 'b')], { env: env(), timeoutMs: 240_000 });
    expect((JSON.parse(again.stdout) as typeof json).traceHash).toBe(json.traceHash);
    await expectReplaysExactly(json.failureFile);
  }, 600_000);

  test('by default, a race inside one function is caught by the samples that step inside functions, and replays exactly', async () => {
    const dir = scratch();
    const result = await runCliAsync(['race', '--adapter', 'postgres-mutant:release-function-unlocked', '--kinds', 'Release,Acquire', '--workers', '2', '--json', '--out', dir], { env: env(), timeoutMs: 240_000 });
    expect(result.code, result.stderr).toBe(1);
    const json = JSON.parse(result.stdout) as { functionSamples: number; insideSchedules: number; failureFile: string };
    expect(json.functionSamples).toBe(10);
    expect(json.insideSchedules).toBeGreaterThan(0);
    const file = JSON.parse(readFileSync(json.failureFile, 'utf8')) as { insideFunctions: boolean; schedule: string[] };
    expect(file.insideFunctions).toBe(true);
    expect(file.schedule.some((step) => /@\d+$/.test(step))).toBe(true);
    await expectReplaysExactly(json.failureFile);
  }, 300_000);

  test('the built-in store passes the same cases', async () => {
    const result = await runCliAsync([...RACE, '--adapter', 'postgres', '--out', scratch()], { env: env(), timeoutMs: 240_000 });
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { cases: number; exhausted: boolean; failing: number };
    expect(json.cases).toBeGreaterThan(10);
    expect(json.exhausted).toBe(true);
  }, 300_000);
});
