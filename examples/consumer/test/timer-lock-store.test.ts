// The lock library with a clock of its own (src/timer-locks.ts), its Date.now(), setTimeout and
// setInterval driven by the testbed's clock kit (src/timer-lock-store.ts): the conformance suite,
// the command-level check and sweeps, and a bug only timers on store time show (an extension that
// leaves the old timer running) found by both. `run.sh` also puts it through `npx testbed check`,
// `sweep` and `stress` (on the wall clock, with clients at once). Each test says how long it may
// take: this project leaves vitest's 5 s default as it is.

import { checkStore, loadScenario, runScenario, seedRange, sweepScenario, type StoreFactory } from 'concurrency-testbed';
import { describeStoreConformance } from 'concurrency-testbed/conformance';
import { describe, expect, test } from 'vitest';
import openStore, { openTimerLockStore } from '../src/timer-lock-store.ts';
import type { TimerLocks } from '../src/timer-locks.ts';

/** The store, keeping every library it opens so that a test can read its timers' stats. */
function observed(bug?: 'extend-leaves-old-timer'): { factory: StoreFactory; libraries: TimerLocks[] } {
  const libraries: TimerLocks[] = [];
  return { libraries, factory: (options) => openTimerLockStore(options, bug === undefined ? {} : { bug }, (locks) => libraries.push(locks)) };
}

describeStoreConformance('the timer lock library', (time) => openTimerLockStore({ time }));

describe('a lock library on timers, driven by the clock kit', () => {
  test('agrees with the reference model command by command', async () => {
    const result = await checkStore({ factory: openStore, runs: 1_000, seed: 1 });
    expect(result).toMatchObject({ verdict: 'pass', fencing: 'integer' });
  }, 120_000);

  test('an extension that leaves the old timer running is caught by the check', async () => {
    const result = await checkStore({ factory: observed('extend-leaves-old-timer').factory, runs: 2_000, seed: 1 });
    if (result.verdict !== 'fail') throw new Error(`expected a divergence, got ${result.verdict}`);
    expect(result.sequence.flatMap((step) => (step.kind === 'command' ? [step.command.kind] : []))).toContain('Renew');
  }, 120_000);

  test.each(['stale-holder', 'renewal-race', 'split-brain-partition'])('%s passes seeds 1..30, its timers run at virtual times', async (name) => {
    const { factory, libraries } = observed();
    const sweep = await sweepScenario({ scenario: loadScenario(name), seeds: seedRange(1, 30), store: { name: './src/timer-lock-store.ts', factory } });
    expect(sweep.firstFailure?.violations ?? []).toEqual([]);
    expect(sweep).toMatchObject({ runs: 30, failures: 0, undecided: 0 });
    expect(libraries.reduce((n, locks) => n + locks.stats.audits, 0)).toBeGreaterThan(30);
    if (name !== 'split-brain-partition') expect(libraries.reduce((n, locks) => n + locks.stats.timedOut, 0)).toBeGreaterThan(0);
  }, 120_000);

  test('the same bug in a scenario: a renewed lock ends at its first deadline and is granted to another', async () => {
    const { factory } = observed('extend-leaves-old-timer');
    const run = await runScenario({ scenario: loadScenario('renewal-race'), seed: 1, store: { name: 'timer-locks-bug', factory } });
    expect(run.valid).toBe(false);
    expect(run.violations.map((v) => v.invariant)).toContain('lease-exclusive');
  }, 60_000);
});
