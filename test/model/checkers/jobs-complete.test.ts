// seed 001 §84–§88, §259, §283, §93: after failover no job the store accepted is lost, and no job
// is finished by two attempts. Once faults heal, every accepted job finishes within the bound of its
// turn: from the latest of its acceptance, the phase start and the last time another job on its
// scope finished. A job whose row a failover or restore may have rolled back is not owed.
import { describe, expect, it } from 'vitest';
import { jobsComplete, owedUntil } from '../../../model/checkers/jobs-complete.ts';
import { HistoryBuilder } from './history-builder.ts';

const BOUND = 5_000;
const row = (jobId: string, status = 'eligible', attemptToken = 0) => ({ jobId, scope: 'env', status, attemptToken, attempts: attemptToken === 0 ? 0 : 1, seq: 1 });

/** The API takes job `jobId` at `at`; the store acknowledges it `ackAfter` ms later (null: never). Returns the job's invoke index. */
function submit(h: HistoryBuilder, at: number, jobId: string, ackAfter: number | null = 5): number {
  const index = h.at(at).invoke(`job:${jobId}`, 'job', { jobId, scope: 'env' });
  h.at(at).invoke(`c1#1:submit:${jobId}`, 'SubmitJob', { kind: 'SubmitJob', jobId, scope: 'env' });
  if (ackAfter !== null) h.at(at + ackAfter).event(`c1#1:submit:${jobId}`, 'ok', 'SubmitJob', { kind: 'JobSubmitted', job: row(jobId) });
  return index;
}

function finishJob(h: HistoryBuilder, at: number, jobId: string, token: number, answer: 'ok' | 'info' = 'ok'): void {
  const process = `c1#1:a${token}`;
  h.at(at).invoke(process, 'FinishJob', { kind: 'FinishJob', jobId, token });
  if (answer === 'ok') h.at(at + 5).event(process, 'ok', 'FinishJob', { kind: 'JobFinished', job: row(jobId, 'done', token) });
  else h.at(at + 5).event(process, 'info', 'FinishJob', { error: 'crash' });
}

describe('jobs-complete', () => {
  it('passes jobs that finish in their turn, even when a backlog on their scope takes longer than the bound', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    submit(h, 200, 'op2');
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(5_500).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    // op2 finishes 9.5 s after the phase: 4.5 s after op1 handed the scope on.
    h.at(10_000).event('job:op2', 'ok', 'job', { jobId: 'op2', token: 2 });
    expect(jobsComplete(h.build()).valid).toBe(true);
  });

  it('fails an accepted job never finished while its scope stood idle for the bound, and leaves one still in its turn undecided', () => {
    const h = new HistoryBuilder();
    const lost = submit(h, 100, 'op1');
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(6_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'accepted' });
    const verdict = jobsComplete(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/job op1 on scope env \(#0, accepted #2\) was never finished: the run ended at time 6000, 5000 ms or more after its scope was last handed on/);
    expect(verdict.violations[0]!.events).toContain(lost);
    const waiting = new HistoryBuilder();
    submit(waiting, 100, 'op1');
    waiting.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    waiting.at(5_999).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'accepted' });
    expect(jobsComplete(waiting.build()).valid).toBe('unknown');
  });

  it('names the latest deadline of an owed job not yet finished, which a run drains to (sim/engine.ts)', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    submit(h, 200, 'op2');
    submit(h, 300, 'op3', null);
    expect(owedUntil(h.build())).toBe(null); // nothing is owed before faults heal
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    expect(owedUntil(h.build())).toBe(6_000);
    // op1 hands the scope on at 5,500: op2's turn runs to 10,500; op3 was never acknowledged.
    h.at(5_500).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    expect(owedUntil(h.build())).toBe(10_500);
    h.at(8_000).event('job:op2', 'ok', 'job', { jobId: 'op2', token: 2 });
    expect(owedUntil(h.build())).toBe(null);
  });

  it('owes nothing for a job the store never acknowledged', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1', null);
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(9_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'not-acknowledged' });
    expect(jobsComplete(h.build()).valid).toBe(true);
  });

  it('fails a job that finished later than the bound of its turn', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(6_001).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    expect(jobsComplete(h.build()).violations[0]?.message).toMatch(/finished at time 6001, past its deadline 6000/);
  });

  it('excuses a job whose row a restore rolled back, but not one accepted before the image', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    submit(h, 2_500, 'op2');
    h.at(3_000).fault('db-restore', { snapshotAgeMs: 1_000, imageTime: 2_000, recoveryEpoch: true, blockedScopes: [] });
    h.at(4_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(9_500).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'accepted' });
    h.at(9_500).event('job:op2', 'fail', 'job', { jobId: 'op2', unfinished: 'accepted' });
    const verdict = jobsComplete(h.build());
    expect(verdict.violations.map((v) => v.message.slice(0, 7))).toEqual(['job op1']);
  });

  it('counts a job finished once a ListJobs after its unanswered FinishJob no longer lists it', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    finishJob(h, 500, 'op1', 1, 'info');
    h.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    h.at(1_100).invoke('c2#1:lead2', 'ListJobs', { kind: 'ListJobs' });
    h.at(1_105).event('c2#1:lead2', 'ok', 'ListJobs', { kind: 'JobList', jobs: [] });
    h.at(9_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'accepted' });
    expect(jobsComplete(h.build()).valid).toBe(true);
    // Listed again (still unfinished), it is owed.
    const listed = new HistoryBuilder();
    submit(listed, 100, 'op1');
    finishJob(listed, 500, 'op1', 1, 'info');
    listed.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    listed.at(1_100).invoke('c2#1:lead2', 'ListJobs', { kind: 'ListJobs' });
    listed.at(1_105).event('c2#1:lead2', 'ok', 'ListJobs', { kind: 'JobList', jobs: [row('op1', 'leased', 1)] });
    listed.at(9_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'accepted' });
    expect(jobsComplete(listed.build()).valid).toBe(false);
  });

  it('fails a job the store finished for two attempts, unless a restore came between the two answers', () => {
    const h = new HistoryBuilder();
    submit(h, 100, 'op1');
    finishJob(h, 500, 'op1', 1);
    h.at(505).event('job:op1', 'ok', 'job', { jobId: 'op1', token: 1 });
    finishJob(h, 900, 'op1', 2);
    const verdict = jobsComplete(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/job op1 was finished twice: by the attempt with token 1 .* and by the one with token 2/);
    // The same attempt's retried FinishJob is one finish.
    const retried = new HistoryBuilder();
    submit(retried, 100, 'op1');
    finishJob(retried, 500, 'op1', 1);
    finishJob(retried, 900, 'op1', 1);
    expect(jobsComplete(retried.build()).valid).toBe(true);
    // Finished by token 1 at 500, a restore at 700 to an image of `imageTime`, finished again by token 2 at 900.
    const acrossRestore = (imageTime: number) => {
      const h = new HistoryBuilder();
      submit(h, 100, 'op1');
      finishJob(h, 500, 'op1', 1);
      h.at(700).fault('db-restore', { snapshotAgeMs: 700 - imageTime, imageTime, recoveryEpoch: true, blockedScopes: [] });
      finishJob(h, 900, 'op1', 2);
      return jobsComplete(h.build()).valid;
    };
    expect(acrossRestore(300)).toBe(true);
    // An image taken after the first finish holds the job done: finishing it again is no excuse.
    expect(acrossRestore(600)).toBe(false);
  });

  it('fails a refused submission, and owes a job the store listed though its submission went unanswered', () => {
    const refused = new HistoryBuilder();
    refused.at(100).invoke('job:op1', 'job', { jobId: 'op1', scope: 'env' });
    refused.at(100).op('c1#1:submit:op1', { kind: 'SubmitJob', jobId: 'op1', scope: 'env' }, { kind: 'Rejected', reason: 'invalid-argument' });
    expect(jobsComplete(refused.build()).violations[0]?.message).toMatch(/the store refused job op1's submission/);
    const listed = new HistoryBuilder();
    submit(listed, 100, 'op1', null);
    listed.at(200).op('c2#1:lead2', { kind: 'ListJobs' }, { kind: 'JobList', jobs: [{ ...row('op1'), attemptLive: false }] });
    listed.at(1_000).fault('liveness-phase', { boundMs: BOUND });
    listed.at(9_000).event('job:op1', 'fail', 'job', { jobId: 'op1', unfinished: 'not-acknowledged' });
    expect(jobsComplete(listed.build()).valid).toBe(false);
  });
});
