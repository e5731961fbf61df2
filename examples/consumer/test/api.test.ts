// More of the public API against this project's store: a scenario written here, the checkers as
// plain functions of a history, and a failure file that replays exactly. Each test says how long it
// may take: this project leaves vitest's 5 s default as it is.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  assertPasses,
  checkAll,
  defineScenario,
  failureOf,
  generatePlan,
  loadScenario,
  readFailureFile,
  replayFailure,
  runScenario,
  seedRange,
  sweepScenario,
  writeFailureFile,
  type StoreChoice,
} from 'concurrency-testbed';
import { expect, test } from 'vitest';
import { openStore, openUnfencedStore } from '../src/store.ts';

// Named by its module path, so that replay lines (`npx testbed run ... --adapter <name>`) name it.
const store: StoreChoice = { name: './src/store.ts', factory: openStore };
const staleHolder = loadScenario('stale-holder');

test('a scenario written in code runs like a built-in one', async () => {
  const scenario = defineScenario({
    name: 'two-deployers',
    title: 'Two controllers deploy to one environment through pauses',
    sources: ['000 §281'],
    workload: { controllers: 2, scopes: 1, mix: { 'env-deploy': 1 }, horizonMs: 5_000, leaseTtlMs: 800 },
    faults: { profile: { nemesisIntervalMs: 400, pauseProbabilityPct: 30, pauseMsMax: 1_500 } },
    invariants: ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic'],
    expect: 'pass',
    operations: 10,
  });
  const first = await runScenario({ scenario, seed: 7, store });
  assertPasses(first);
  // Deterministic to the seed: the same trace hash every time.
  expect((await runScenario({ scenario, seed: 7, store })).traceHash).toBe(first.traceHash);
  // The checkers are plain functions of the history.
  expect(checkAll(first.history, ['lease-exclusive']).valid).toBe(true);
}, 60_000);

test('a failure file replays exactly', async () => {
  const unfenced: StoreChoice = { name: 'unfenced', factory: openUnfencedStore };
  const sweep = await sweepScenario({ scenario: staleHolder, seeds: seedRange(1, 50), store: unfenced, stopAtFirstFailure: true });
  const failing = sweep.firstFailure;
  if (failing === null) throw new Error('the unfenced store passed 50 seeds of stale-holder');
  expect(failing.plan).toEqual(generatePlan(staleHolder, failing.seed));
  const dir = await mkdtemp(path.join(tmpdir(), 'consumer-'));
  try {
    const file = path.join(dir, 'failure.json');
    await writeFailureFile(file, failureOf(failing.plan, failing));
    const replayed = await replayFailure(await readFailureFile(file), unfenced);
    expect(replayed.traceHash).toBe(failing.traceHash);
    expect(replayed.valid).toBe(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
