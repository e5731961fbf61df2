// Conformance, part three: the jobs table (seed 001 §36–§41, §84–§85, §93; model/jobs.ts). A job
// is eligible, leased (its latest attempt holds the token) or done; a dispatch creates the job's
// lease and marks the job leased in one transaction, under the role guard.

import { describe, expect } from 'vitest';
import type { Command, FinishJobCommand, ReturnJobCommand } from '../model/commands.ts';
import { Lacks, STRIDE, type Group, type It } from './harness.ts';

type JobCommand<K extends Command['kind']> = Extract<Command, { kind: K }>;

const submit = (jobId: string, scope: string): JobCommand<'SubmitJob'> => ({ kind: 'SubmitJob', jobId, scope });
const dispatch = (jobId: string, holder: string, ttlMs = 100, extra: Partial<JobCommand<'DispatchJob'>> = {}): JobCommand<'DispatchJob'> => ({
  kind: 'DispatchJob',
  jobId,
  holder,
  ttlMs,
  ...extra,
});
const finish = (jobId: string, token: number): FinishJobCommand => ({ kind: 'FinishJob', jobId, token });
const giveBack = (jobId: string, token: number): ReturnJobCommand => ({ kind: 'ReturnJob', jobId, token });
const list: JobCommand<'ListJobs'> = { kind: 'ListJobs' };

/** A job row as the store answers it. */
const row = (jobId: string, scope: string, seq: number, status: 'eligible' | 'leased' | 'done' = 'eligible', attemptToken = 0, attempts = 0) => ({
  jobId,
  scope,
  status,
  attemptToken,
  attempts,
  seq,
});

/** A listed job: its row and whether its latest attempt's lease is live. */
const listed = (job: ReturnType<typeof row>, attemptLive = false) => ({ ...job, attemptLive });

export function jobSections(it: It, group: Group = describe): void {
  group('jobs: submit and list (seed 001 §36–§41, §84–§85)', () => {
    it('a submission is numbered from 1; a resubmission finds its row; invalid ids are rejected and write nothing', async ({ run }) => {
      expect(await run(submit('j1', 's'))).toEqual({ kind: 'JobSubmitted', job: row('j1', 's', 1) });
      expect(await run(submit('j2', 's'))).toEqual({ kind: 'JobSubmitted', job: row('j2', 's', 2) });
      expect(await run(submit('j1', 's'))).toEqual({ kind: 'JobExists', job: row('j1', 's', 1) });
      expect(await run(submit('j1', 'other'))).toEqual({ kind: 'JobExists', job: row('j1', 's', 1) });
      for (const [jobId, scope] of [['', 's'], ['j3', ''], ['x'.repeat(257), 's'], ['j\u0001', 's'], ['j3', 'nul\u0000'], ['j3', 'a\u007fb']]) {
        expect(await run(submit(jobId!, scope!))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      }
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('j1', 's', 1)), listed(row('j2', 's', 2))] });
      expect(await run(submit('j3', 's'))).toEqual({ kind: 'JobSubmitted', job: row('j3', 's', 3) });
    });

    it('ListJobs gives the unfinished jobs, eligible and leased, in submission order', async ({ run }) => {
      for (const [jobId, scope] of [['zeta', 'a'], ['alpha', 'b'], ['mid', 'c'], ['beta', 'd']]) await run(submit(jobId!, scope!));
      expect(await run(dispatch('alpha', 'w'))).toMatchObject({ kind: 'JobDispatched', lease: { token: 1 } });
      expect(await run(finish('alpha', 1))).toMatchObject({ kind: 'JobFinished' });
      expect(await run(dispatch('mid', 'w'))).toMatchObject({ kind: 'JobDispatched', lease: { token: 1 } });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('zeta', 'a', 1)), listed(row('mid', 'c', 3, 'leased', 1, 1), true), listed(row('beta', 'd', 4))] });
    });

    it('ids and scopes come back exactly as given', async ({ run }) => {
      const jobId = 'job \\0 \'; -- \uD800 😀';
      const scope = 'scope \\u0000 \uDC00';
      expect(await run(submit(jobId, scope))).toEqual({ kind: 'JobSubmitted', job: row(jobId, scope, 1) });
      expect(await run(dispatch(jobId, 'w\\'))).toMatchObject({ kind: 'JobDispatched', job: { jobId, scope }, lease: { scope, holder: 'w\\' } });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row(jobId, scope, 1, 'leased', 1, 1), true)] });
    });
  });

  group('jobs: dispatch (seed 001 §84–§85, §93)', () => {
    it('creates the job lease; Busy while it lives, and listed with its attempt live; after it expires the job is dispatched again with a new token', async ({ run, clock, inspected }) => {
      await run(submit('j1', 's'));
      const lease1 = { scope: 's', holder: 'w1', token: 1, acquiredAt: 10_000, expiresAt: 10_100 };
      expect(await run(dispatch('j1', 'w1'))).toEqual({ kind: 'JobDispatched', job: row('j1', 's', 1, 'leased', 1, 1), lease: lease1 });
      clock.advance(99);
      expect(await run(dispatch('j1', 'w2'))).toEqual({ kind: 'Busy', holder: 'w1', token: 1, expiresAt: 10_100 });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('j1', 's', 1, 'leased', 1, 1), true)] });
      clock.advance(1);
      // Store time decides: the attempt's lease is no longer live, the job is the work a dead attempt left.
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('j1', 's', 1, 'leased', 1, 1), false)] });
      const lease2 = { scope: 's', holder: 'w2', token: 2, acquiredAt: 10_100, expiresAt: 10_200 };
      expect(await run(dispatch('j1', 'w2'))).toEqual({ kind: 'JobDispatched', job: row('j1', 's', 1, 'leased', 2, 2), lease: lease2 });
      const view = await inspected();
      if (view !== null) {
        expect(view.leases).toEqual([lease2]);
        expect(view.tokens).toEqual([{ scope: 's', lastToken: 2 }]);
      }
    });

    it('a done job and an unknown job are NotDispatchable', async ({ run }) => {
      await run(submit('j1', 's'));
      await run(dispatch('j1', 'w'));
      await run(finish('j1', 1));
      expect(await run(dispatch('j1', 'w2'))).toEqual({ kind: 'NotDispatchable', job: row('j1', 's', 1, 'done', 1, 1) });
      expect(await run(dispatch('nope', 'w'))).toEqual({ kind: 'NotDispatchable', job: null });
    });

    it('a guard with an old epoch is Fenced and writes nothing; an equal or newer one is stored, even when the dispatch fails', async ({ run, inspected }) => {
      await run(submit('j1', 's'));
      expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 3 })).toMatchObject({ kind: 'RoleEpochAdvanced' });
      expect(await run(dispatch('j1', 'w', 100, { guard: { role: 'scheduler', epoch: 2 } }))).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 3 });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('j1', 's', 1))] });
      const fenced = await inspected();
      if (fenced !== null) {
        expect(fenced.leases).toEqual([]);
        expect(fenced.tokens).toEqual([]);
      }
      expect(await run(dispatch('j1', 'w', 100, { guard: { role: 'scheduler', epoch: 3 } }))).toMatchObject({ kind: 'JobDispatched', lease: { token: 1 } });
      expect(await run(dispatch('j1', 'w', 100, { guard: { role: 'scheduler', epoch: 5 } }))).toMatchObject({ kind: 'Busy', token: 1 });
      expect(await run({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: 4 })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 5 });
    });

    it('a blocked scope, a bad ttl or a bad holder is Rejected and leaves the job eligible', async ({ run }) => {
      await run(submit('j1', 'blk'));
      expect(await run({ kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: ['blk'] })).toMatchObject({ kind: 'RecoveryAdvanced', recoveryEpoch: 1 });
      expect(await run(dispatch('j1', 'w'))).toEqual({ kind: 'Rejected', reason: 'blocked-for-reconciliation' });
      expect(await run(dispatch('j1', 'w', 0))).toEqual({ kind: 'Rejected', reason: 'ttl-out-of-bounds' });
      expect(await run(dispatch('j1', ''))).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(row('j1', 'blk', 1))] });
      expect(await run({ kind: 'ReconcileScope', scope: 'blk', actor: 'ops' })).toEqual({ kind: 'Reconciled' });
      expect(await run(dispatch('j1', 'w'))).toMatchObject({ kind: 'JobDispatched', job: { attempts: 1, attemptToken: STRIDE + 1 } });
    });
  });

  group('jobs: finish and return (seed 001 §84–§85)', () => {
    it('FinishJob: the current attempt finishes the job, a retry is answered again, a stale token is StaleAttempt', async ({ run, clock }) => {
      await run(submit('j1', 's'));
      await run(dispatch('j1', 'w1'));
      clock.advance(100);
      await run(dispatch('j1', 'w2'));
      expect(await run(finish('j1', 1))).toEqual({ kind: 'StaleAttempt', job: row('j1', 's', 1, 'leased', 2, 2) });
      expect(await run(finish('j1', 0))).toEqual({ kind: 'StaleAttempt', job: row('j1', 's', 1, 'leased', 2, 2) });
      const done = row('j1', 's', 1, 'done', 2, 2);
      expect(await run(finish('j1', 2))).toEqual({ kind: 'JobFinished', job: done });
      expect(await run(finish('j1', 2))).toEqual({ kind: 'JobFinished', job: done });
      expect(await run(finish('j1', 1))).toEqual({ kind: 'StaleAttempt', job: done });
      expect(await run(giveBack('j1', 2))).toEqual({ kind: 'StaleAttempt', job: done });
      expect(await run(finish('nope', 1))).toEqual({ kind: 'StaleAttempt', job: null });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [] });
    });

    it('ReturnJob puts the job back to eligible; once its lease is gone it is dispatched again', async ({ run }) => {
      await run(submit('j1', 's'));
      await run(dispatch('j1', 'w1', 1000));
      expect(await run(giveBack('j1', 7))).toEqual({ kind: 'StaleAttempt', job: row('j1', 's', 1, 'leased', 1, 1) });
      const returned = row('j1', 's', 1, 'eligible', 1, 1);
      expect(await run(giveBack('j1', 1))).toEqual({ kind: 'JobReturned', job: returned });
      expect(await run(giveBack('j1', 1))).toEqual({ kind: 'StaleAttempt', job: returned });
      expect(await run(finish('j1', 1))).toEqual({ kind: 'StaleAttempt', job: returned });
      expect(await run(list)).toEqual({ kind: 'JobList', jobs: [listed(returned)] });
      // Returning the job does not end its lease: the scope stays Busy until the holder releases it.
      expect(await run(dispatch('j1', 'w2'))).toMatchObject({ kind: 'Busy', holder: 'w1', token: 1 });
      expect(await run({ kind: 'Release', scope: 's', holder: 'w1', token: 1 })).toEqual({ kind: 'Released', token: 1 });
      expect(await run(dispatch('j1', 'w2'))).toMatchObject({ kind: 'JobDispatched', job: row('j1', 's', 1, 'leased', 2, 2), lease: { holder: 'w2', token: 2 } });
    });
  });

  group('jobs: concurrent callers (seed 001 §93)', () => {
    it('concurrent submissions are numbered 1..n without gaps; one id is submitted once; one dispatch wins', async ({ run }) => {
      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      const answers = await Promise.all([...ids.map((id) => run(submit(id, 's'))), ...[1, 2, 3].map(() => run(submit('dup', 's')))]);
      expect(answers.filter((a) => a.kind === 'JobSubmitted')).toHaveLength(ids.length + 1);
      const seqs = answers.map((a) => (a.kind === 'Rejected' ? 0 : a.job.seq));
      expect([...new Set(seqs)].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const dispatched = await Promise.all(['w1', 'w2', 'w3'].map((holder) => run(dispatch('dup', holder))));
      expect(dispatched.map((d) => d.kind).sort()).toEqual(['Busy', 'Busy', 'JobDispatched']);
      const listed = await run(list);
      expect(listed.jobs.map((j) => j.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(listed.jobs.find((j) => j.jobId === 'dup')).toMatchObject({ status: 'leased', attemptToken: 1, attempts: 1 });
    });

    it('a FinishJob racing a new dispatch of its expired attempt: one of them wins, a finished job is never leased again', async ({ run, clock }) => {
      const jobs = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];
      for (const jobId of jobs) {
        await run(submit(jobId, `scope-${jobId}`));
        await run(dispatch(jobId, 'old'));
      }
      clock.advance(100);
      const answers = await Promise.all(jobs.map((jobId) => Promise.all([run(finish(jobId, 1)), run(dispatch(jobId, 'new'))])));
      for (const [finished, dispatched] of answers) {
        if (finished.kind === 'JobFinished') expect(dispatched).toMatchObject({ kind: 'NotDispatchable', job: { status: 'done', attempts: 1 } });
        else expect(dispatched).toMatchObject({ kind: 'JobDispatched', job: { status: 'leased', attempts: 2, attemptToken: 2 } });
      }
      const finishedIds = answers.flatMap(([finished], i) => (finished.kind === 'JobFinished' ? [jobs[i]] : []));
      expect((await run(list)).jobs.map((j) => j.jobId)).toEqual(jobs.filter((id) => !finishedIds.includes(id)));
    });
  });

  group('jobs: snapshot and restore (seed 001 §84–§85)', () => {
    it('an image holds the jobs table: a restore brings back the rows and the submission numbering', async ({ run, store }) => {
      if (!store.snapshot || !store.restore) throw new Lacks('snapshot() and restore()');
      await run(submit('j1', 's'));
      await run(submit('j2', 's'));
      await run(dispatch('j1', 'w'));
      const image = await store.snapshot();
      const before = await run(list);
      await run(finish('j1', 1));
      await run(submit('j3', 's'));
      await store.restore(image);
      expect(await run(list)).toEqual(before);
      expect(await run(submit('j4', 's'))).toEqual({ kind: 'JobSubmitted', job: row('j4', 's', 3) });
      expect(await run(finish('j1', 1))).toEqual({ kind: 'JobFinished', job: row('j1', 's', 1, 'done', 1, 1) });
    });
  });
}
