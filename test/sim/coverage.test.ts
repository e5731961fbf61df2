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

test('pairs listed unreachable are named with their reason and not as missing; a pair a run reached is not listed', () => {
  const unreachable = [
    { pair: 'Renew:Rejected', reason: 'no correct controller sends an invalid TTL' },
    { pair: 'Acquire:Busy', reason: 'listed, but reached below' },
  ];
  const summary = summarizeCoverage([{ scenario: 'a', coverage: { commands: ['Acquire'], outcomes: ['Acquire:Busy'] } }], { unreachable });
  expect(summary.outcomes.unreachable).toEqual([unreachable[0]]);
  expect(summary.outcomes.missing).not.toContain('Renew:Rejected');
  expect(summary.outcomes.missing).toContain('Renew:Expired');
  expect(summary.outcomes.total).toBe(OUTCOME_PAIRS.length);
});

test('coverage is measured against the command kinds the store declares', () => {
  const summary = summarizeCoverage([{ scenario: 'a', coverage: { commands: ['Acquire', 'Release'], outcomes: ['Acquire:Acquired', 'Release:Released'] } }], {
    declared: ['Acquire', 'Release'],
    unreachable: [{ pair: 'Renew:Rejected', reason: 'a kind the store lacks: not listed' }],
  });
  expect(summary.commands).toEqual({ reached: 2, total: 2, missing: [] });
  expect(summary.outcomes.total).toBe(6);
  expect(summary.outcomes.missing).toEqual(['Acquire:Busy', 'Acquire:Rejected', 'Acquire:Fenced', 'Release:Stale']);
  expect(summary.outcomes.unreachable).toEqual([]);
});
