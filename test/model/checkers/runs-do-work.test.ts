// seed 000 §59–§61, §115–§117: a handler run that nothing told to stop and its store refused
// nothing calls its provider; a controller that does no work is caught, not passed by every
// safety rule.
import { describe, expect, it } from 'vitest';
import { runsDoWork } from '../../../model/checkers/runs-do-work.ts';
import { HistoryBuilder, failing, mutated } from './history-builder.ts';

const RUN = 'c1#1:run1';
const P = 'c1#1';
const opened = { scope: 'env', token: 7, holder: P };

/** A run of P that writes its aggregate, then does `middle`, returns, does `after`, and closes as `outcome`. */
function run(
  middle: (h: HistoryBuilder) => void,
  outcome: 'completed' | 'error' | 'preempted' = 'error',
  after: (h: HistoryBuilder) => void = () => {},
): { readonly h: HistoryBuilder; readonly returned: number; readonly end: number } {
  const h = new HistoryBuilder();
  h.invoke(RUN, 'run', opened);
  mutated(h, P, 'env', P, 7);
  middle(h);
  const returned = h.truth('handler-returned', { process: RUN, result: outcome === 'completed' ? 'ok' : 'error' });
  after(h);
  const end = h.event(RUN, outcome === 'completed' ? 'ok' : 'fail', 'run', { outcome });
  return { h, returned, end };
}

const effect = (h: HistoryBuilder) => {
  h.invoke(P, 'effect', { intentId: 'op1/e', scope: 'env', token: 7, holder: P });
  h.event(P, 'ok', 'effect', { applied: true });
};

const planned = (h: HistoryBuilder) => {
  h.invoke(P, 'PlanIntent', { kind: 'PlanIntent', intentId: 'op1/e', scope: 'env', token: 7, operation: 'deploy', retrySafety: 'InspectBeforeRetry' });
  h.event(P, 'ok', 'PlanIntent', { kind: 'Planned', intent: { intentId: 'op1/e', state: 'Planned' } });
};

describe('runs-do-work', () => {
  it('passes a run that called its provider, whatever the effect came to', () => {
    for (const answer of [{ applied: true }, { applied: false }]) {
      const { h } = run((b) => {
        planned(b);
        b.invoke(P, 'effect', { intentId: 'op1/e', scope: 'env', token: 7, holder: P });
        b.event(P, 'ok', 'effect', answer);
      }, answer.applied ? 'completed' : 'error');
      expect(runsDoWork(h.build())).toEqual({ valid: true, violations: [] });
    }
  });

  it('fails a run that nothing stopped and that never called its provider', () => {
    const { h, returned, end } = run((b) => {
      planned(b);
      b.invoke(P, 'TransitionIntent', { kind: 'TransitionIntent', intentId: 'op1/e', to: 'Failed' });
      b.event(P, 'ok', 'TransitionIntent', { kind: 'Transitioned', intent: { intentId: 'op1/e', state: 'Failed' } });
    });
    const [v] = failing(runsDoWork(h.build()), 1);
    expect(v!.message).toMatch(/^run c1#1:run1 \(env, token 7\) closed error at #\d+ \(t=\d+\): its handler returned at #\d+ without calling its provider, though nothing told it to stop and none of its 3 store calls was refused/);
    expect(v!.events).toEqual([0, returned, end]);
    expect(v!.scope).toBe('env');
    // A completed one too: reporting the work done does not make it done.
    expect(failing(runsDoWork(run(planned, 'completed').h.build()), 1)[0]!.message).toMatch(/closed completed/);
  });

  it('excuses a run told to stop, before or after its handler returned', () => {
    const { h } = run((b) => b.truth('cancel-cause', { process: RUN, cause: 'unconfirmed' }), 'preempted');
    expect(runsDoWork(h.build()).valid).toBe(true);
  });

  it('excuses a run refused by its store, failed by a call, or left not knowing a call’s outcome', () => {
    const refusals: ReadonlyArray<(b: HistoryBuilder) => void> = [
      (b) => {
        b.invoke(P, 'Mutate', { kind: 'Mutate', scope: 'env', aggregate: 'a', holder: P, token: 7, expectedVersion: 0 });
        b.event(P, 'ok', 'Mutate', { kind: 'StaleVersion', currentVersion: 3 });
      },
      (b) => {
        b.invoke(P, 'PlanIntent', { kind: 'PlanIntent', intentId: 'op1/e', scope: 'env', token: 7, operation: 'deploy', retrySafety: 'InspectBeforeRetry' });
        b.event(P, 'info', 'PlanIntent', { error: 'unavailable' });
      },
      (b) => {
        b.invoke(P, 'site-authority', { domain: 't2', site: 2, scope: 'env' });
        b.event(P, 'fail', 'site-authority', { reason: 'held by site 3', epoch: 2 });
      },
    ];
    for (const refusal of refusals) expect(runsDoWork(run(refusal).h.build()).valid).toBe(true);
  });

  it('counts a refusal only when no later call of its kind was granted, and a planned intent found again as granted', () => {
    const overcome = (b: HistoryBuilder) => {
      b.invoke(P, 'Mutate', { kind: 'Mutate', scope: 'env', aggregate: 'a', holder: P, token: 7, expectedVersion: 0 });
      b.event(P, 'ok', 'Mutate', { kind: 'StaleVersion', currentVersion: 3 });
      mutated(b, P, 'env', P, 7, 3);
    };
    const duplicate = (b: HistoryBuilder) => {
      b.invoke(P, 'PlanIntent', { kind: 'PlanIntent', intentId: 'op1/e', scope: 'env', token: 7, operation: 'deploy', retrySafety: 'InspectBeforeRetry' });
      b.event(P, 'ok', 'PlanIntent', { kind: 'Duplicate', intent: { intentId: 'op1/e', state: 'Planned' } });
    };
    for (const middle of [overcome, duplicate]) expect(failing(runsDoWork(run(middle).h.build()), 1)).toHaveLength(1);
  });

  it('judges only what the process did before the handler returned', () => {
    // An effect (or a refusal) after the return, while the refresh loop drains, is the next job's.
    const late = run(planned, 'error', effect);
    expect(failing(runsDoWork(late.h.build()), 1)).toHaveLength(1);
    expect(runsDoWork(run(effect, 'completed').h.build()).valid).toBe(true);
  });

  it('judges only runs that were classified, and only their own process’s calls within them', () => {
    const open = new HistoryBuilder();
    open.invoke(RUN, 'run', opened);
    expect(runsDoWork(open.build()).valid).toBe(true);
    const crashed = new HistoryBuilder();
    crashed.invoke(RUN, 'run', opened);
    crashed.event(RUN, 'info', 'run', { outcome: 'unknown' });
    expect(runsDoWork(crashed.build()).valid).toBe(true);
    // Another process's effect, or one after the run closed, is not this run's.
    const { h } = run((b) => {
      b.invoke('c2#1', 'effect', { intentId: 'op9/e', scope: 'env', token: 8, holder: 'c2#1' });
      b.event('c2#1', 'ok', 'effect', { applied: true });
    });
    h.invoke(P, 'effect', { intentId: 'op1/e', scope: 'env', token: 7, holder: P });
    h.event(P, 'ok', 'effect', { applied: true });
    expect(failing(runsDoWork(h.build()), 1)).toHaveLength(1);
  });
});
