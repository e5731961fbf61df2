// Workload coverage (sim/coverage.ts): a run's reached command and outcome kinds come from its
// history; a sweep sums them per scenario and in total against every kind of the port.

import { expect, test } from 'vitest';
import { OUTCOME_PAIRS } from '../../model/outcome-kinds.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { coverageOf, summarizeCoverage } from '../../sim/coverage.ts';
import { sweepRun } from '../../campaign/sweep-pool.ts';

test('a run reports the command kinds it sent and the outcome kinds it got back', async () => {
  const run = await sweepRun(loadScenario('semaphore-capacity'), 1, 'memory');
  expect(run.coverage.commands).toContain('AcquirePermit');
  expect(run.coverage.outcomes).toContain('DefineCapacity:Defined');
  for (const outcome of run.coverage.outcomes) expect(OUTCOME_PAIRS).toContain(outcome);
});

test('only store commands count: controller operations and faults are not commands of the port', () => {
  const coverage = coverageOf([
    { index: 0, time: 0, process: 'c1#1', type: 'invoke', f: 'Acquire', value: {} },
    { index: 1, time: 1, process: 'c1#1', type: 'ok', f: 'Acquire', value: { kind: 'Busy' } },
    { index: 2, time: 1, process: 'c1#1', type: 'invoke', f: 'effect', value: {} },
    { index: 3, time: 2, process: 'c1#1', type: 'ok', f: 'effect', value: { kind: 'Applied' } },
    { index: 4, time: 2, process: 'c1#1', type: 'invoke', f: 'Renew', value: {} },
    { index: 5, time: 3, process: 'c1#1', type: 'info', f: 'Renew', value: { error: 'unknown' } },
  ] as never);
  expect(coverage).toEqual({ commands: ['Acquire', 'Renew'], outcomes: ['Acquire:Busy'] });
});

test('a summary names what no run reached', () => {
  const summary = summarizeCoverage([
    { scenario: 'a', coverage: { commands: ['Acquire'], outcomes: ['Acquire:Acquired'] } },
    { scenario: 'b', coverage: { commands: ['Acquire', 'Release'], outcomes: ['Release:Released'] } },
  ]);
  expect(summary.commands.reached).toBe(2);
  expect(summary.commands.missing).toContain('Renew');
  expect(summary.outcomes.reached).toBe(2);
  expect(summary.outcomes.total).toBe(OUTCOME_PAIRS.length);
  expect(summary.scenarios['b']).toEqual({ commands: ['Acquire', 'Release'], outcomes: ['Release:Released'] });
});
