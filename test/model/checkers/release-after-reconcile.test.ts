// seed 000 §115–§121, §288–§289: a lease is kept until its in-flight effect is reconciled; non-supersedable runs are never cancelled by CancelPrevious.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import type { EffectState } from '../../../model/effect-state.ts';
import { releaseAfterReconcile } from '../../../model/checkers/release-after-reconcile.ts';
import { HistoryBuilder, acquired } from './history-builder.ts';

const intent = { intentId: 'i1', scope: 'env', token: 7, operation: 'deploy', retrySafety: 'InspectBeforeRetry' } as const;
const plan: Command = { kind: 'PlanIntent', ...intent };
const release: Command = { kind: 'Release', scope: 'env', holder: 'A', token: 7 };

function transition(h: HistoryBuilder, to: EffectState): [number, number] {
  return h.op('c1#1', { kind: 'TransitionIntent', intentId: 'i1', to }, { kind: 'Transitioned', intent: { ...intent, state: to } });
}

describe('release-after-reconcile', () => {
  it('passes the correct sequence: effect unknown, inspected, reconciled, then released', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.op('c1#1', plan, { kind: 'Planned', intent: { ...intent, state: 'Planned' } });
    transition(h, 'Started');
    h.call('c1#1', 'effect', { ...intent, holder: 'A', attempt: 1 }, 'ok', { timedOut: true });
    transition(h, 'Unknown');
    h.call('c1#1', 'inspect', { intentId: 'i1' }, 'ok', { applied: true });
    transition(h, 'Reconciled');
    h.op('c1#1', release, { kind: 'Released', token: 7 });
    h.call('g#1', 'cancel', { group: 'preview', runId: 'run-1', supersedable: true, mode: 'CancelPrevious' }, 'ok', { released: [] });
    expect(releaseAfterReconcile(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a release while the intent is still Started', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.op('c1#1', plan, { kind: 'Planned', intent: { ...intent, state: 'Planned' } });
    const [started, startedOk] = transition(h, 'Started');
    const [rel, relOk] = h.op('c1#1', release, { kind: 'Released', token: 7 });
    const verdict = releaseAfterReconcile(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'release-after-reconcile', scope: 'env', events: [started, startedOk, rel, relOk] });
  });

  it('fails a cancel that releases the lease while an effect under it has an unobserved outcome', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    const [call, lost] = h.call('c1#1', 'effect', { ...intent, holder: 'A', attempt: 1 }, 'info', null);
    const [cancel, cancelled] = h.call('g#1', 'cancel', { group: 'deploy', runId: 'run-1', supersedable: true, mode: 'CancelPrevious' }, 'ok', { released: [{ scope: 'env', token: 7 }] });
    const verdict = releaseAfterReconcile(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toEqual([call, lost, cancel, cancelled]);
  });

  it('fails CancelPrevious of a non-supersedable run', () => {
    const h = new HistoryBuilder();
    const [cancel, cancelled] = h.call('g#1', 'cancel', { group: 'prod', runId: 'run-9', supersedable: false, mode: 'CancelPrevious' }, 'ok', {});
    const verdict = releaseAfterReconcile(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ events: [cancel, cancelled] });
    expect(verdict.violations[0]?.message).toContain('non-supersedable run run-9');
  });
});
