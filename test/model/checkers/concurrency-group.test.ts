// seed 000 §10–§17, §119–§121 and seed 003 (admission order): a serial group never runs two runs at
// once, and in CancelPrevious no run is taken in after one admitted later was; §115–§117: a run
// whose cancellation was requested starts no new external effect.
import { describe, expect, it } from 'vitest';
import { concurrencyGroup } from '../../../model/checkers/concurrency-group.ts';
import { HistoryBuilder } from './history-builder.ts';

const submit = (h: HistoryBuilder, process: string, runId: string, admittedAt: number, decision: unknown): [number, number] =>
  h.call(process, 'group-submit', { group: 'g', runId, mode: 'CancelPrevious', supersedable: true, admittedAt }, 'ok', decision);

describe('concurrency-group', () => {
  it('passes runs one after another, and a newer run superseding an older one', () => {
    const h = new HistoryBuilder();
    submit(h, 'c1#1', 'old', 100, { kind: 'Started' });
    h.call('c1#1:group', 'group-run', { group: 'g', runId: 'old', mode: 'CancelPrevious' }, 'ok', { group: 'g', runId: 'old' });
    submit(h, 'c2#1', 'new', 200, { kind: 'Superseding', cancelled: ['old'] });
    submit(h, 'c3#1', 'late', 150, { kind: 'Superseded', by: 'new' });
    h.call('c2#1:group', 'group-run', { group: 'g', runId: 'new', mode: 'CancelPrevious' }, 'ok', { group: 'g', runId: 'new' });
    expect(concurrencyGroup(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails two runs of a serial group holding it at once', () => {
    const h = new HistoryBuilder();
    const a = h.invoke('c1#1:group', 'group-run', { group: 'g', runId: 'a', mode: 'Queue' });
    h.invoke('c2#1:group', 'group-run', { group: 'g', runId: 'b', mode: 'Queue' });
    h.event('c1#1:group', 'ok', 'group-run', { group: 'g', runId: 'a' });
    const verdict = concurrencyGroup(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.message).toMatch(/run b started at #1 while run a \(started #0\) was still running/);
    expect(verdict.violations[0]?.events).toContain(a);
  });

  it('fails an older run that arrived late and superseded a run admitted after it', () => {
    const h = new HistoryBuilder();
    const [newer] = submit(h, 'c2#1', 'new', 200, { kind: 'Started' });
    const [late] = submit(h, 'c1#1', 'old', 100, { kind: 'Superseding', cancelled: ['new'] });
    const verdict = concurrencyGroup(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.message).toBe('group g (CancelPrevious): run old admitted at t=100 was taken in (#3) after run new, admitted later at t=200, had been (#1): the older run won');
    expect(verdict.violations[0]?.events).toEqual(expect.arrayContaining([newer, late]));
  });

  it('fails an older run that arrived after the newer one finished and still ran', () => {
    const h = new HistoryBuilder();
    submit(h, 'c2#1', 'new', 200, { kind: 'Started' });
    h.call('c2#1:group', 'group-run', { group: 'g', runId: 'new', mode: 'CancelPrevious' }, 'ok', { group: 'g', runId: 'new' });
    submit(h, 'c1#1', 'old', 100, { kind: 'Started' });
    expect(concurrencyGroup(h.build()).violations[0]?.message).toMatch(/run old admitted at t=100 was taken in .* after run new/);
  });

  describe('a cancelled run starts no new side effect (§115–§117)', () => {
    /** Run `old` of c1#1, cancelled by c2#1; `intentStarted` says whether its intent moved to Started before the cancel. */
    function cancelledRun(intentStarted: 'before' | 'after' | 'none'): HistoryBuilder {
      const h = new HistoryBuilder();
      submit(h, 'c1#1', 'old', 100, { kind: 'Started' });
      const run = h.invoke('c1#1:group', 'group-run', { group: 'g', runId: 'old', mode: 'CancelPrevious' });
      const start = () => h.op('c1#1', { kind: 'TransitionIntent', intentId: 'old/e', to: 'Started' }, { kind: 'Transitioned', intent: { intentId: 'old/e' } });
      if (intentStarted === 'before') start();
      submit(h, 'c2#1', 'new', 200, { kind: 'Superseding', cancelled: ['old'] });
      h.call('c2#1', 'cancel', { group: 'g', runId: 'old', supersedable: true, mode: 'CancelPrevious' }, 'ok', { runId: 'old', requested: true });
      if (intentStarted === 'after') start();
      h.call('c1#1', 'effect', { intentId: 'old/e', scope: 's', token: 1 }, 'ok', { applied: true });
      h.event('c1#1:group', 'ok', 'group-run', { group: 'g', runId: 'old' });
      expect(run).toBeGreaterThanOrEqual(0);
      return h;
    }

    it('passes an effect whose intent had started before the cancellation: it is reconciled, not stopped', () => {
      expect(concurrencyGroup(cancelledRun('before').build()).valid).toBe(true);
    });

    it('judges a cancelled deploy that is no group run: its own process may not start the operation\'s effect after the request', () => {
      const deploy = (startAfterCancel: boolean) => {
        const h = new HistoryBuilder();
        const start = () => h.op('c1#1', { kind: 'TransitionIntent', intentId: 'op8/e', to: 'Started' }, { kind: 'Transitioned', intent: { intentId: 'op8/e' } });
        if (!startAfterCancel) start();
        h.call('c1#1:cx', 'cancel', { group: 'deploy', runId: 'op8', supersedable: false, mode: 'Cancel' }, 'ok', { runId: 'op8', requested: true });
        if (startAfterCancel) start();
        h.call('c1#1', 'effect', { intentId: 'op8/e', scope: 's', token: 1 }, 'ok', { applied: true });
        // Another node's effect on another operation is not the cancelled run's.
        h.call('c2#1', 'effect', { intentId: 'op9/e', scope: 's', token: 2 }, 'ok', { applied: true });
        return concurrencyGroup(h.build());
      };
      expect(deploy(false).valid).toBe(true);
      expect(deploy(true).violations[0]?.message).toMatch(/run op8 of c1#1 started an external effect .* after its cancellation was requested/);
    });

    it('fails an effect started after the cancellation was requested, with or without an intent', () => {
      for (const started of ['after', 'none'] as const) {
        const verdict = concurrencyGroup(cancelledRun(started).build());
        expect(verdict.valid, started).toBe(false);
        expect(verdict.violations[0]?.message).toMatch(/run old started an external effect .* after its cancellation was requested/);
      }
    });
  });
});
