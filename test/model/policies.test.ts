// seed 000 §10–§20, §64–§65, §115–§122, §191–§197: retry safety and workflow concurrency groups as pure policies.

import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { complete, emptyGroup, submit, type ConcurrencyMode, type GroupState } from '../../model/concurrency-group.ts';
import { RETRY_SAFETIES } from '../../model/effect-state.ts';
import { afterInspection, retryDecision } from '../../model/retry-policy.ts';

describe('retry policy', () => {
  test.each([
    ['Idempotent', 'Unknown', 'retry'],
    ['Idempotent', 'Timeout', 'retry'],
    ['ProviderIdempotent', 'Timeout', 'retry'],
    ['InspectBeforeRetry', 'Failed', 'retry'],
    ['InspectBeforeRetry', 'Unknown', 'inspect-first'],
    ['InspectBeforeRetry', 'Timeout', 'inspect-first'],
    ['ManualOnly', 'Failed', 'manual'],
    ['ManualOnly', 'Unknown', 'manual'],
  ] as const)('%s after %s -> %s', (safety, last, decision) => {
    expect(retryDecision(safety, last)).toBe(decision);
  });

  propTest.prop([fc.constantFrom(...RETRY_SAFETIES), fc.constantFrom('Unknown' as const, 'Timeout' as const)])(
    'property: an ambiguous outcome of a non-idempotent effect is never retried blindly',
    (safety, last) => {
      const idempotent = safety === 'Idempotent' || safety === 'ProviderIdempotent';
      expect(retryDecision(safety, last) === 'retry').toBe(idempotent);
    },
  );

  test('after inspection: applied is done, not applied may retry unless manual', () => {
    expect(afterInspection('InspectBeforeRetry', true)).toBe('done');
    expect(afterInspection('InspectBeforeRetry', false)).toBe('retry');
    expect(afterInspection('ManualOnly', false)).toBe('manual');
  });
});

describe('workflow concurrency groups', () => {
  let admissions = 0;
  const run = (runId: string, supersedable = true, admittedAt = ++admissions) => ({ runId, supersedable, admittedAt });

  test('AllowParallel starts everything; Queue serializes; RejectNew rejects while occupied', () => {
    let g: GroupState = emptyGroup('AllowParallel');
    g = submit(g, run('a')).group;
    expect(submit(g, run('b')).decision).toEqual({ kind: 'Started' });

    let q = submit(emptyGroup('Queue'), run('a')).group;
    const queued = submit(q, run('b'));
    expect(queued.decision).toEqual({ kind: 'Queued', position: 1 });
    q = queued.group;
    expect(complete(q, 'a').started.map((r) => r.runId)).toEqual(['b']);

    const r = submit(emptyGroup('RejectNew'), run('a')).group;
    expect(submit(r, run('b')).decision).toEqual({ kind: 'Rejected', activeRunIds: ['a'] });
  });

  test('CancelPrevious supersedes a supersedable run, but the new run waits until the old one has reconciled', () => {
    let g = submit(emptyGroup('CancelPrevious'), run('preview-1')).group;
    const superseding = submit(g, run('preview-2'));
    expect(superseding.decision).toEqual({ kind: 'Superseding', cancelled: ['preview-1'] });
    g = superseding.group;
    expect(g.active).toEqual([]);
    expect(g.cancelling.map((r) => r.runId)).toEqual(['preview-1']);
    expect(complete(g, 'preview-1').started.map((r) => r.runId)).toEqual(['preview-2']);
  });

  test('CancelPrevious: the newest admission wins, so an older run that arrives late is superseded on arrival (seed 003)', () => {
    const g = submit(emptyGroup('CancelPrevious'), run('preview-new', true, 200)).group;
    const late = submit(g, run('preview-old', true, 100));
    expect(late.decision).toEqual({ kind: 'Superseded', by: 'preview-new' });
    expect(late.group).toBe(g);
    expect(submit(g, run('preview-newer', true, 300)).decision).toEqual({ kind: 'Superseding', cancelled: ['preview-new'] });
    // Still after the newer run has finished: the old run would overwrite what the newer one did.
    const finished = complete(g, 'preview-new').group;
    expect(submit(finished, run('preview-old', true, 100)).decision).toEqual({ kind: 'Superseded', by: 'preview-new' });
  });

  test('CancelPrevious never cancels a non-supersedable run (production deploy, release publish, migration)', () => {
    const g = submit(emptyGroup('CancelPrevious'), run('deploy-prod', false)).group;
    const refused = submit(g, run('deploy-prod-2', false));
    expect(refused.decision).toEqual({ kind: 'CancelRefused', protectedRunIds: ['deploy-prod'] });
    expect(refused.group).toBe(g);
  });

  propTest.prop([fc.constantFrom<ConcurrencyMode>('Queue', 'CancelPrevious', 'RejectNew'), fc.array(fc.boolean(), { maxLength: 12 })])(
    'property: in exclusive modes at most one run is active, none while a cancelled run reconciles, and no non-supersedable run is ever cancelled',
    (mode, supersedables) => {
      let g = emptyGroup(mode);
      supersedables.forEach((supersedable, i) => {
        const protectedBefore = g.active.filter((r) => !r.supersedable).map((r) => r.runId);
        const next = submit(g, run(`r${i}`, supersedable));
        if (next.decision.kind === 'Superseding') for (const id of protectedBefore) expect(next.decision.cancelled).not.toContain(id);
        g = next.group;
        if (g.cancelling.length > 0) expect(g.active).toEqual([]);
        expect(g.active.length).toBeLessThanOrEqual(1);
      });
    },
  );
});
