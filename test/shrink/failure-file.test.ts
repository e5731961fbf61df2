// docs/ARCHITECTURE.md "The CLI contract" (every failure replays exactly): failure.json round-trips, replays to the identical trace hash, and a malformed file is rejected with one clear line.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMutant, mutantPolicy } from '../../mutants/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { FailureFileError, failureOf, readFailureFile, replayFailure, writeFailureFile, type FailureFile } from '../../campaign/failure-file.ts';
import { correctExecutor, runMutants } from '../../campaign/mutant-run.ts';
import { generatePlan } from '../../sim/run.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'failure-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function correctFailureShaped(): Promise<FailureFile> {
  const plan = generatePlan(loadScenario('stale-holder'), 7);
  return failureOf(plan, await correctExecutor()(plan));
}

describe('failure.json', () => {
  it('round-trips through write and read unchanged, leaving no temporary file behind', async () => {
    const failure = await correctFailureShaped();
    const path = join(dir, 'nested', 'round-trip.json');
    await writeFailureFile(path, failure);
    expect(await readFailureFile(path)).toEqual(JSON.parse(JSON.stringify(failure)));
    expect(await readdir(join(dir, 'nested'))).toEqual(['round-trip.json']);
  });

  it('carries the history of the failing run, validated like the rest of the file', async () => {
    const plan = generatePlan(loadScenario('stale-holder'), 7);
    const result = await correctExecutor()(plan);
    const path = join(dir, 'with-history.json');
    await writeFailureFile(path, failureOf(plan, result));
    const read = await readFailureFile(path);
    expect(read.history).toHaveLength(result.events);
    expect(read.history).toEqual(JSON.parse(JSON.stringify(result.history)));
    const damaged = { ...JSON.parse(JSON.stringify(read)), history: [{ index: 0, time: 0, type: 'nonsense', process: 'x', f: 'y' }] };
    await expect(writeFailureFile(join(dir, 'damaged.json'), damaged)).rejects.toThrow(/history\.0\.type/);
  });

  // Plans with coordination settings that are not counts (the consensus kind is a name; whether
  // jobs have artifacts is a flag) are written and replayed.
  it.each([
    ['raft-failover', { consensus: 'raft' }],
    ['cas-outage', { artifacts: true }],
  ])('a coordinated plan (%s) is written, read and replayed to the identical trace hash', async (scenario, settings) => {
    const plan = generatePlan(loadScenario(scenario), 3);
    const failure = failureOf(plan, await correctExecutor()(plan));
    const path = join(dir, `coordinated-${scenario}.json`);
    await writeFailureFile(path, failure);
    const read = await readFailureFile(path);
    expect(read.plan.coordination).toMatchObject(settings);
    expect((await replayFailure(read)).traceHash).toBe(failure.traceHash);
  });

  it('replaying the stored plan gives the identical trace hash (correct store)', async () => {
    const failure = await correctFailureShaped();
    const path = join(dir, 'correct.json');
    await writeFailureFile(path, failure);
    const replayed = await replayFailure(await readFailureFile(path));
    expect(replayed.traceHash).toBe(failure.traceHash);
  });

  // One store-level mutant (seed 002) and one controller-level mutant (its policy travels in the file).
  for (const name of ['key-only-force-release', 'blind-retry-after-timeout']) {
    it(`replaying the shrunk counterexample of ${name} gives the identical trace hash and the same violations`, async () => {
      const [report] = await runMutants({ mutants: [findMutant(name)!], seeds: 200 });
      expect(report?.caught).toBe(true);
      const failure = report!.failure!;
      const path = join(dir, `${name}.json`);
      await writeFailureFile(path, failure);
      const read = await readFailureFile(path);
      expect(read.mutant).toBe(name);
      expect(read.policy).toEqual(mutantPolicy(findMutant(name)!));
      const replayed = await replayFailure(read);
      expect(replayed.traceHash).toBe(failure.traceHash);
      // The hunt judges with the history checkers alone; a replay also runs the shadow model's
      // differential, which adds its own finding for a store mutant and nothing else.
      expect(replayed.violations.filter((v) => v.invariant !== 'differential')).toEqual(failure.violations);
    });
  }

  it('rejects malformed files with one line that names the file and the problem', async () => {
    const failure = await correctFailureShaped();
    const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
      ['not-json.json', '{ "version": 1,', /not JSON/],
      ['empty.json', '', /not JSON/],
      ['array.json', '[]', /not a failure file/],
      ['version.json', JSON.stringify({ ...failure, version: 2 }), /version/],
      ['no-plan.json', JSON.stringify({ ...failure, plan: undefined }), /plan/],
      ['hash.json', JSON.stringify({ ...failure, traceHash: 'abc' }), /traceHash/],
      ['extra.json', JSON.stringify({ ...failure, surprise: true }), /not a failure file/],
      ['steps.json', JSON.stringify({ ...failure, plan: { ...failure.plan, steps: [{ kind: 'nap', at: 1 }] } }), /plan\.steps\.0\.kind/],
      ['other-seed.json', JSON.stringify({ ...failure, seed: failure.seed + 1 }), /plan is for/],
    ];
    for (const [name, text, problem] of cases) {
      const path = join(dir, name);
      await writeFile(path, text);
      const error = await readFailureFile(path).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(FailureFileError);
      const message = (error as Error).message;
      expect(message, name).toMatch(problem);
      expect(message.startsWith(path), name).toBe(true);
      expect(message.includes('\n'), name).toBe(false);
    }
    await expect(readFailureFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read/);
  });

  it('refuses to write an invalid failure file and leaves the target untouched', async () => {
    const failure = await correctFailureShaped();
    const path = join(dir, 'kept.json');
    await writeFailureFile(path, failure);
    const before = await readFile(path, 'utf8');
    await expect(writeFailureFile(path, { ...failure, traceHash: 'nope' })).rejects.toBeInstanceOf(FailureFileError);
    expect(await readFile(path, 'utf8')).toBe(before);
  });
});
