// model/history.ts: the records the checkers read besides the store's calls have one shape each, and
// the simulator refuses to write one of another shape (a misspelt label or a missing field would
// make a checker skip it without a word).
import { describe, expect, it } from 'vitest';
import { opRecordProblem, truthRecordProblem } from '../../model/record-shapes.ts';
import { HistoryRecorder } from '../../sim/history-recorder.ts';

describe('record shapes', () => {
  it('knows the four operation event types and the handler run and wait records', () => {
    expect(opRecordProblem('ok', 'Acquire', { kind: 'Acquired' })).toBeNull();
    expect(opRecordProblem('', 'wait', {})).toMatch(/type ""/);
    expect(opRecordProblem('invoke', '', {})).toMatch(/without a function/);
    expect(opRecordProblem('invoke', 'run', { scope: 'env', token: 7, holder: 'c1#1' })).toBeNull();
    expect(opRecordProblem('invoke', 'run', {})).toMatch(/scope is not a string/);
    expect(opRecordProblem('fail', 'run', { outcome: 'lost' })).toMatch(/outcome is "lost", not one of completed, error, preempted/);
    expect(opRecordProblem('ok', 'wait', { scope: 'env', waiterId: 'w1', token: 3 })).toBeNull();
    expect(opRecordProblem('ok', 'wait', {})).toMatch(/scope is not a string/);
    // An info closes an op its process's end cut short: it carries why, not a result.
    expect(opRecordProblem('info', 'run', { error: 'timeout' })).toBeNull();
  });

  it('knows each kind of ground truth, who records it and its fields', () => {
    expect(truthRecordProblem('handler', 'cancel-cause', { process: 'c1#1:run1', cause: 'window-passed' })).toBeNull();
    expect(truthRecordProblem('handler', 'cancel-cause', { process: 'c1#1:run1', cause: '' })).toMatch(/cause is "", not one of renewal-refused/);
    expect(truthRecordProblem('handler', 'handler-returned', { process: 'c1#1:run1', result: 'maybe' })).toMatch(/result is "maybe"/);
    expect(truthRecordProblem('handler', 'work-step', { scope: 'env', token: 7, holder: 'c1#1' })).toMatch(/process is not a string/);
    expect(truthRecordProblem('handler', '', {})).toMatch(/unknown kind ""/);
    expect(truthRecordProblem('database', 'effect-applied', { intentId: 'i', scope: 's', holder: 'h', operation: 'deploy' })).toMatch(/recorded by database, not provider/);
    expect(truthRecordProblem('provider', 'effect-applied', { intentId: 'i', scope: 's', holder: 'h', operation: 'deploy' })).toBeNull();
    // The port lets a store answer Accepted without a token, and a database crash ends sessions of no one process.
    expect(truthRecordProblem('resource', 'mutation-accepted', { scope: 's', aggregate: 'a', token: null, holder: 'h', version: 2 })).toBeNull();
    expect(truthRecordProblem('resource', 'mutation-accepted', { scope: 's', aggregate: 'a', token: '7', holder: 'h', version: 2 })).toMatch(/token is neither a number nor absent/);
    expect(truthRecordProblem('database', 'session-ended', { scope: 's', holder: 'h', token: 3, cause: 'database-crash', process: null })).toBeNull();
  });

  it('the simulator does not write a record of another shape', () => {
    const recorder = new HistoryRecorder();
    expect(() => recorder.truth(0, 'handler', 'cancel-cause', { process: 'c1#1:run1', cause: '' })).toThrow(/malformed cancel-cause truth/);
    expect(() => recorder.op(0, 'c1#1:wait', 'ok', 'wait', {})).toThrow(/malformed wait ok of c1#1:wait/);
    expect(recorder.events).toEqual([]);
  });
});
