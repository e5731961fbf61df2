// results.json round-trips, and a malformed file stops with a clear message naming every bad field.

import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GateInputError, loadResults, saveResults } from '../../reports/index.ts';
import { staleHolderFailingInput } from './fixtures.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('results-file-');
async function tempDir(): Promise<string> {
  return scratch();
}

describe('results.json', () => {
  it('loads back exactly what was saved, histories included, leaving no temporary file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'results.json');
    const input = staleHolderFailingInput();
    await saveResults(input, path);
    expect(await loadResults(path)).toEqual(JSON.parse(JSON.stringify(input)));
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it('keeps that a first failure was flaky (it did not fail again when run again)', async () => {
    const path = join(await tempDir(), 'results.json');
    const input = staleHolderFailingInput();
    const flaky = { ...input, scenarios: input.scenarios.map((s) => (s.firstFailure === undefined ? s : { ...s, firstFailure: { ...s.firstFailure, flaky: true as const } })) };
    await saveResults(flaky, path);
    const loaded = await loadResults(path);
    expect(loaded.scenarios.find((s) => s.scenario === 'stale-holder')?.firstFailure?.flaky).toBe(true);
  });

  it('names the file and says it is not JSON', async () => {
    const path = join(await tempDir(), 'results.json');
    await writeFile(path, '{"startedAt": ');
    await expect(loadResults(path)).rejects.toThrow(new RegExp(`^${path}: not a valid gate run input:\\n  not valid JSON`));
  });

  it('lists the path of every bad field', async () => {
    const path = join(await tempDir(), 'results.json');
    const input = JSON.parse(JSON.stringify(staleHolderFailingInput()));
    input.scenarios[2].seedsRun = -1;
    input.mutants[0].caught = 'yes';
    delete input.samples[1].history[3].time;
    input.finishedAt = 'yesterday';
    await writeFile(path, JSON.stringify(input));
    const error = await loadResults(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GateInputError);
    expect((error as GateInputError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^finishedAt: /),
        expect.stringMatching(/^scenarios\.2\.seedsRun: /),
        'scenarios.2.failures: failures exceeds seedsRun',
        expect.stringMatching(/^mutants\.0\.caught: /),
        expect.stringMatching(/^samples\.1\.history\.3\.time: /),
      ]),
    );
    expect((error as GateInputError).problems).toHaveLength(5);
  });

  it('rejects a file with a missing section', async () => {
    const path = join(await tempDir(), 'results.json');
    const { mutants: _dropped, ...rest } = staleHolderFailingInput();
    await writeFile(path, JSON.stringify(rest));
    await expect(loadResults(path)).rejects.toThrow(/mutants: /);
  });
});
