// seed 001 §84–§88, §259: after failover no job is lost. Once faults heal, every job finishes within
// the bound of its turn: from the latest of its submission, the phase start and the last time
// another job on its scope finished.
import { describe, expect, it } from 'vitest';
import { jobsComplete } from '../../../model/checkers/jobs-complete.ts';
import { HistoryBuilder } from './history-builder.ts';

const BOUND = 5_000;
const job = (jobId: string, scope = 'env') => ({ jobId, scope });

describe('jobs-complete', () => {
  it('passes jobs that finish in their turn, even when a backlog on their scope takes longer than the bound', () => {
    const h = new HistoryBuilder();
    h.at(100).invoke('job:op1', 'job', job('op1'));
    h.at(200).invoke('job:op2', 'job', job('op2'));
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(5_500).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    // op2 finishes 9.5 s after the phase: 4.5 s after op1 handed the scope on.
    h.at(10_000).event('job:op2', 'ok', 'job', { jobId: 'op2', token: 2 });
    expect(jobsComplete(h.build()).valid).toBe(true);
  });

  it('fails a job never finished while its scope stood idle for the bound, and leaves one still in its turn undecided', () => {
    const h = new HistoryBuilder();
    const lost = h.at(100).invoke('job:op1', 'job', job('op1'));
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(6_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'dispatching' });
    const verdict = jobsComplete(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/job op1 on scope env \(#0\) was never finished: the run ended at time 6000, 5000 ms or more after its scope was last handed on/);
    expect(verdict.violations[0]!.events).toContain(lost);
    const waiting = new HistoryBuilder();
    waiting.at(100).invoke('job:op1', 'job', job('op1'));
    waiting.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    waiting.at(5_999).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'leased' });
    expect(jobsComplete(waiting.build()).valid).toBe('unknown');
  });

  it('fails a job that finished later than the bound of its turn', () => {
    const h = new HistoryBuilder();
    h.at(100).invoke('job:op1', 'job', job('op1'));
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(6_001).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    expect(jobsComplete(h.build()).violations[0]?.message).toMatch(/finished at time 6001, past its deadline 6000/);
  });
});
