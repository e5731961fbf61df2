// How a race schedule is judged (campaign/race/judge.ts, race-history.ts): answers a serial order
// gives pass; two owners of one scope under one token are named by the history checker of
// exclusive leases (000 §24, §77–§78) before the reference model's verdict; a history with a kind
// the checkers do not follow (a job's lease, 001 §84) is judged by the reference model alone, so
// a correct answer naming the job's holder is no phantom lease.

import { describe, expect, test } from 'vitest';
import type { SettledCall } from '../../adapters/interleaving.ts';
import { CallTimeoutError } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { judgeSchedule } from '../../campaign/race/judge.ts';
import { raceHistory } from '../../campaign/race/race-history.ts';
import { caseOf, type RaceCase } from '../../campaign/race/space.ts';

const SESSIONS = ['s1', 's2'];

/** The case's calls run serially in slot order by the reference model: their answers and the state left. */
function serially(raceCase: RaceCase): { answers: unknown[]; state: ModelState } {
  let state = raceCase.built.model;
  const answers = raceCase.commands.map((command, i) => {
    const next = step(state, command, raceCase.arrivals[i]!);
    state = next.state;
    return next.outcome;
  });
  return { answers, state };
}

function judge(raceCase: RaceCase, answers: ReadonlyArray<unknown>, state: ModelState) {
  const end = Math.max(...raceCase.arrivals);
  const settled: SettledCall[] = answers.map((value, call) => ({ call, result: { status: 'fulfilled', value }, storeTimes: [raceCase.arrivals[call]!] }));
  const calls = raceCase.commands.map((command: Command, i) => ({ session: SESSIONS[i]!, command }));
  const view = step(state, { kind: 'Inspect' }, end).outcome;
  return judgeSchedule(raceCase.built.model, calls, settled, view, end, raceHistory(raceCase, SESSIONS, settled));
}

describe('judging a race schedule', () => {
  test('answers of a serial order pass', () => {
    const raceCase = caseOf(['Acquire', 'Acquire'], 'free', 'rival')!;
    const { answers, state } = serially(raceCase);
    expect(judge(raceCase, answers, state)).toEqual({ kind: 'pass' });
  });

  test('two calls both granted the free scope under one token break the history checkers, named by their rule', () => {
    const raceCase = caseOf(['Acquire', 'Acquire'], 'free', 'rival')!;
    const first = step(raceCase.built.model, raceCase.commands[0]!, raceCase.arrivals[0]!);
    const second = step(raceCase.built.model, raceCase.commands[1]!, raceCase.arrivals[1]!);
    expect([first.outcome.kind, second.outcome.kind]).toEqual(['Acquired', 'Acquired']);
    const verdict = judge(raceCase, [first.outcome, second.outcome], first.state);
    expect(verdict.kind).toBe('fail');
    expect(['lease-exclusive', 'fencing-monotonic']).toContain(verdict.rule);
  });

  test('a call whose store was lost (a call past its time limit) leaves the schedule undecided, never a finding', () => {
    const raceCase = caseOf(['Acquire', 'Acquire'], 'free', 'rival')!;
    const { answers, state } = serially(raceCase);
    const end = Math.max(...raceCase.arrivals);
    const settled: SettledCall[] = [
      { call: 0, result: { status: 'fulfilled', value: answers[0] }, storeTimes: [end] },
      { call: 1, result: { status: 'rejected', reason: new CallTimeoutError('store x on Acquire', 20_000) }, storeTimes: [end] },
    ];
    const calls = raceCase.commands.map((command: Command, i) => ({ session: SESSIONS[i]!, command }));
    const verdict = judgeSchedule(raceCase.built.model, calls, settled, step(state, { kind: 'Inspect' }, end).outcome, end, raceHistory(raceCase, SESSIONS, settled));
    expect(verdict).toEqual({ kind: 'undecided', message: 'store x on Acquire did not finish within 20 s' });
  });

  test("a job's lease in the setup is the reference model's to judge: the store's correct Busy answer passes", () => {
    const raceCase = caseOf(['Acquire', 'Acquire'], 'job-dispatched', 'rival')!;
    expect(raceCase.built.setup.map((s) => s.command.kind)).toContain('DispatchJob');
    const { answers, state } = serially(raceCase);
    expect(answers.some((a) => (a as { kind: string }).kind === 'Busy')).toBe(true);
    expect(judge(raceCase, answers, state)).toEqual({ kind: 'pass' });
  });
});
