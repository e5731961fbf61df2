// seed 000 §64–§65, §285, §288: an unknown non-idempotent effect is inspected before any retry; the provider never applies an intent twice.
import { describe, expect, it } from 'vitest';
import { noBlindRetry } from '../../../model/checkers/no-blind-retry.ts';
import { HistoryBuilder } from './history-builder.ts';

function effect(intentId: string, retrySafety: string, attempt: number): Record<string, unknown> {
  return { intentId, scope: 'env', token: 7, holder: 'A', operation: 'deploy', retrySafety, attempt };
}

describe('no-blind-retry', () => {
  it('passes a timed-out effect that is inspected, found not applied, then re-issued once', () => {
    const h = new HistoryBuilder();
    h.call('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 1), 'info', null);
    h.call('c1#2', 'inspect', { intentId: 'i1' }, 'ok', { applied: false });
    h.call('c1#2', 'effect', effect('i1', 'InspectBeforeRetry', 2), 'ok', { applied: true });
    h.truth('effect-applied', { intentId: 'i1', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    h.call('c2#1', 'effect', effect('i2', 'Idempotent', 1), 'ok', { timedOut: true });
    h.call('c2#1', 'effect', effect('i2', 'Idempotent', 2), 'ok', { applied: true });
    expect(noBlindRetry(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a re-issue after a timeout with no inspect in between', () => {
    const h = new HistoryBuilder();
    const [first, timedOut] = h.call('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 1), 'ok', { timedOut: true });
    const retry = h.invoke('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 2));
    const verdict = noBlindRetry(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'no-blind-retry', events: [first, timedOut, retry] });
  });

  it('fails a re-issue when the inspect found the effect applied or came before the unknown outcome', () => {
    const h = new HistoryBuilder();
    h.invoke('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 1));
    h.call('c2#1', 'inspect', { intentId: 'i1' }, 'ok', { applied: false });
    h.event('c1#1', 'info', 'effect', null);
    h.call('c2#1', 'inspect', { intentId: 'i1' }, 'ok', { applied: true });
    h.invoke('c1#2', 'effect', effect('i1', 'InspectBeforeRetry', 2));
    expect(noBlindRetry(h.build()).valid).toBe(false);
  });

  it('fails a re-issue while the first attempt was still in flight, even if it later reports not applied', () => {
    const h = new HistoryBuilder();
    const first = h.invoke('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 1));
    const retry = h.invoke('c2#1', 'effect', effect('i1', 'InspectBeforeRetry', 2));
    const late = h.event('c1#1', 'ok', 'effect', { applied: false });
    const verdict = noBlindRetry(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toEqual([first, retry, late]);
  });

  it('fails any automatic re-issue of a ManualOnly effect, even after an inspect', () => {
    const h = new HistoryBuilder();
    h.call('c1#1', 'effect', effect('i1', 'ManualOnly', 1), 'info', null);
    h.call('c1#2', 'inspect', { intentId: 'i1' }, 'ok', { applied: false });
    const retry = h.invoke('c1#2', 'effect', effect('i1', 'ManualOnly', 2));
    const verdict = noBlindRetry(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.events).toContain(retry);
    expect(verdict.violations[0]?.message).toContain('ManualOnly');
  });

  it('fails when the provider applies one intent twice', () => {
    const h = new HistoryBuilder();
    h.call('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 1), 'fail', null);
    h.call('c1#1', 'effect', effect('i1', 'InspectBeforeRetry', 2), 'ok', { applied: true });
    const once = h.truth('effect-applied', { intentId: 'i1', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    const twice = h.truth('effect-applied', { intentId: 'i1', scope: 'env', token: 7, holder: 'A', operation: 'deploy' });
    const verdict = noBlindRetry(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ events: [once, twice], scope: 'env' });
  });
});
