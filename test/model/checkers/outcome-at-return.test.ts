// seed 003 (cause-reclassified-after-return), seed 000 §157–§159, §224–§225: a handler run's outcome
// follows what happened before its handler returned; a lease loss that lands after the return
// never makes it preempted, and never hides the handler's error; and a run is told to stop only
// for what the history shows happened to it.
import { describe, expect, it } from 'vitest';
import { outcomeAtReturn } from '../../../model/checkers/outcome-at-return.ts';
import { HistoryBuilder, acquire, failing, lease } from './history-builder.ts';

const RUN = 'c1#1:run1';
const opened = { scope: 'env', token: 7, holder: 'c1#1' };

/** A run whose handler returns `result`, with a cancellation cause before or after the return (or none), closed as `outcome`. */
function run(result: 'ok' | 'error', cause: 'before' | 'after' | 'none', outcome: 'completed' | 'error' | 'preempted'): { readonly h: HistoryBuilder; readonly end: number } {
  const h = new HistoryBuilder();
  h.invoke(RUN, 'run', opened);
  // What the cause tells of: the run's refresh loop had a renewal refused.
  if (cause !== 'none') refusedRenewal(h);
  if (cause === 'before') h.truth('cancel-cause', { process: RUN, cause: 'renewal-refused' });
  h.truth('handler-returned', { process: RUN, result });
  if (cause === 'after') h.truth('cancel-cause', { process: RUN, cause: 'renewal-refused' });
  const end = h.event(RUN, outcome === 'completed' ? 'ok' : 'fail', 'run', { outcome });
  return { h, end };
}

/** A renewal of the run's lease by its refresh loop, answered Stale. */
function refusedRenewal(h: HistoryBuilder): void {
  h.op('c1#1:hb1', { kind: 'Renew', scope: 'env', holder: 'c1#1', expectedToken: 7, ttlMs: 100 }, { kind: 'Stale', currentToken: 8 });
}

describe('outcome-at-return', () => {
  it('passes a run classified by what happened before its handler returned', () => {
    for (const [result, cause, outcome] of [
      ['ok', 'none', 'completed'],
      ['error', 'none', 'error'],
      ['ok', 'after', 'completed'],
      ['error', 'after', 'error'],
      ['ok', 'before', 'preempted'],
      ['error', 'before', 'preempted'],
    ] as const) {
      expect(outcomeAtReturn(run(result, cause, outcome).h.build()), `${result} ${cause} ${outcome}`).toEqual({ valid: true, violations: [] });
    }
  });

  it('fails a completed run reclassified as preempted by a loss that landed after its handler returned', () => {
    const { h, end } = run('ok', 'after', 'preempted');
    const [v] = failing(outcomeAtReturn(h.build()), 1);
    expect(v!.message).toMatch(/run c1#1:run1 \(env, token 7\): its handler returned ok at #3 \(t=3\) before its cancellation cause \(renewal-refused\) landed at #4 \(t=4\), yet the run was classified preempted at #5 \(t=5\): a completed run was reclassified/);
    expect(v!.events).toEqual([0, 3, 4, end]);
    expect(v!.scope).toBe('env');
  });

  it('fails a handler error suppressed behind a loss that landed after the return', () => {
    const [v] = failing(outcomeAtReturn(run('error', 'after', 'preempted').h.build()), 1);
    expect(v!.message).toMatch(/returned error .* yet the run was classified preempted .*: the handler error was suppressed/);
  });

  it('fails a run preempted with no cause at all, and one whose handler result is misreported', () => {
    expect(failing(outcomeAtReturn(run('ok', 'none', 'preempted').h.build()), 1)[0]!.message).toMatch(/returned ok at #1 \(t=1\) with no cause to stop, yet the run was classified preempted/);
    expect(failing(outcomeAtReturn(run('error', 'none', 'completed').h.build()), 1)[0]!.message).toMatch(/returned error .* classified completed/);
  });

  it('fails a run told to stop while its handler ran that is not reported preempted', () => {
    const [v] = failing(outcomeAtReturn(run('ok', 'before', 'completed').h.build()), 1);
    expect(v!.message).toMatch(/classified completed at #5 \(t=5\), but it was told to stop \(renewal-refused\) at #3 \(t=3\), before its handler returned ok at #4 \(t=4\): it was preempted/);
  });

  it('fails a run classified before its handler returned, and an outcome that disagrees with ok or fail', () => {
    const early = new HistoryBuilder();
    early.invoke(RUN, 'run', opened);
    early.event(RUN, 'ok', 'run', { outcome: 'completed' });
    early.truth('handler-returned', { process: RUN, result: 'ok' });
    expect(failing(outcomeAtReturn(early.build()), 1)[0]!.message).toMatch(/classified completed at #1 \(t=1\) before its handler returned/);
    const mislabelled = new HistoryBuilder();
    mislabelled.invoke(RUN, 'run', opened);
    mislabelled.truth('handler-returned', { process: RUN, result: 'error' });
    mislabelled.event(RUN, 'ok', 'run', { outcome: 'error' });
    expect(failing(outcomeAtReturn(mislabelled.build()), 1)[0]!.message).toMatch(/closed ok with outcome error/);
  });

  it('judges no run of unknown end, nor one still open while a renewal it drains is unanswered, and only the first cause counts', () => {
    const h = new HistoryBuilder();
    h.invoke(RUN, 'run', opened);
    h.invoke('c1#1:hb1', 'Renew', { kind: 'Renew', scope: 'env', holder: 'c1#1', expectedToken: 7, ttlMs: 100 });
    h.truth('handler-returned', { process: RUN, result: 'ok' });
    h.invoke('c2#1:run2', 'run', { scope: 'env', token: 8, holder: 'c2#1' });
    h.event('c2#1:run2', 'info', 'run', { error: 'timeout' });
    expect(outcomeAtReturn(h.build()).valid).toBe(true);
    const twice = run('ok', 'after', 'completed').h;
    twice.truth('cancel-cause', { process: RUN, cause: 'cancelled' });
    expect(outcomeAtReturn(twice.build()).valid).toBe(true);
  });

  it('fails a run told to stop for what did not happen to it, and passes one whose cause the history shows', () => {
    const stopped = (before: (h: HistoryBuilder) => void, cause: string, at?: number): HistoryBuilder => {
      const h = new HistoryBuilder();
      h.op('c1#1', acquire('env', 'c1#1', 100), { kind: 'Acquired', lease: lease('env', 'c1#1', 7, 0, 100) });
      h.invoke(RUN, 'run', opened);
      before(h);
      if (at !== undefined) h.at(at);
      h.truth('cancel-cause', { process: RUN, cause });
      return h;
    };
    const unfounded = (h: HistoryBuilder) => failing(outcomeAtReturn(h.build()), 1)[0]!.message;
    const nothing = (): void => undefined;
    // A renewal answered Renewed, or another incarnation's refusal, tells this run nothing.
    const renewed = (h: HistoryBuilder) => void h.op('c1#1:hb1', { kind: 'Renew', scope: 'env', holder: 'c1#1', expectedToken: 7, ttlMs: 100 }, { kind: 'Renewed', lease: lease('env', 'c1#1', 7, 0, 200) });
    const othersRefused = (h: HistoryBuilder) => void h.op('c2#1:hb1', { kind: 'Renew', scope: 'env', holder: 'c2#1', expectedToken: 6, ttlMs: 100 }, { kind: 'Expired' });
    expect(unfounded(stopped(renewed, 'renewal-refused'))).toMatch(/was told to stop \(renewal-refused\) at #5 \(t=5\), but no renewal of its incarnation came back refused/);
    expect(unfounded(stopped(othersRefused, 'renewal-refused'))).toMatch(/no renewal of its incarnation/);
    expect(outcomeAtReturn(stopped(refusedRenewal, 'renewal-refused').build()).valid).toBe(true);
    // A write refused by its fence is a cause; one that only met a newer version is retried.
    const write = (kind: string) => (h: HistoryBuilder) => void h.op('c1#1', { kind: 'Mutate', scope: 'env', aggregate: 'a', holder: 'c1#1', token: 7, expectedVersion: 0 }, kind === 'StaleVersion' ? { kind, currentVersion: 2 } : { kind, currentToken: 8 });
    expect(unfounded(stopped(write('StaleVersion'), 'write-refused'))).toMatch(/no fenced write of its incarnation was refused/);
    expect(outcomeAtReturn(stopped(write('StaleFence'), 'write-refused').build()).valid).toBe(true);
    expect(unfounded(stopped(nothing, 'cancelled'))).toMatch(/no cancellation was recorded before it/);
    expect(outcomeAtReturn(stopped((h) => void h.call('c9#1:cx', 'cancel', { group: 'deploy', runId: 'op1', supersedable: false, mode: 'Cancel' }, 'ok', { runId: 'op1', requested: true }), 'cancelled').build()).valid).toBe(true);
    // The window of a 100 ms lease asked for at t=0 cannot pass before t=50.
    expect(unfounded(stopped(nothing, 'window-passed', 49))).toMatch(/only 49 ms went by since its lease was asked for at #0 \(t=0\), less than half its TTL of 100 ms/);
    expect(unfounded(stopped(nothing, 'unconfirmed', 10))).toMatch(/only 10 ms went by/);
    expect(outcomeAtReturn(stopped(nothing, 'window-passed', 50).build()).valid).toBe(true);
    expect(unfounded(stopped(nothing, 'lease-felt-old'))).toMatch(/the cause "lease-felt-old" is none the runtime knows/);
  });

  it('fails a run never reported: its handler returned with nothing left to drain, or its holder released the lease first', () => {
    const returned = new HistoryBuilder();
    returned.invoke(RUN, 'run', opened);
    returned.op('c1#1:hb1', { kind: 'Renew', scope: 'env', holder: 'c1#1', expectedToken: 7, ttlMs: 100 }, { kind: 'Renewed', lease: { scope: 'env', holder: 'c1#1', token: 7, acquiredAt: 0, expiresAt: 100 } });
    returned.truth('handler-returned', { process: RUN, result: 'ok' });
    expect(failing(outcomeAtReturn(returned.build()), 1)[0]!.message).toMatch(/run c1#1:run1 \(env, token 7\): its handler returned at #3 \(t=3\) and no renewal was left to drain, yet the run was never classified/);

    const released = new HistoryBuilder();
    released.invoke(RUN, 'run', opened);
    released.op('c1#1', { kind: 'Release', scope: 'env', holder: 'c1#1', token: 7 }, { kind: 'Released', token: 7 });
    const [v] = failing(outcomeAtReturn(released.build()), 1);
    expect(v!.message).toMatch(/its holder released the run's lease at #1 \(t=1\), yet its handler never returned/);
    // Another lease's release, or one by another process (a cancellation's helper), says nothing of this run.
    const other = new HistoryBuilder();
    other.invoke(RUN, 'run', opened);
    other.op('c1#1', { kind: 'Release', scope: 'env', holder: 'c1#1', token: 6 }, { kind: 'Released', token: 6 });
    other.op('c1#1:cancel1', { kind: 'Release', scope: 'env', holder: 'c1#1', token: 7 }, { kind: 'Released', token: 7 });
    expect(outcomeAtReturn(other.build()).valid).toBe(true);
  });

  it('cannot decide a history in which a handler returned twice', () => {
    const h = run('ok', 'none', 'completed').h;
    h.truth('handler-returned', { process: RUN, result: 'ok' });
    expect(() => outcomeAtReturn(h.build())).toThrow(/returned twice/);
  });
});
