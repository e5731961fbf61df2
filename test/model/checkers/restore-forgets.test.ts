// seed 000 §272–§276: after a recovery, no answer names a lease it removed; after a restore, none
// names a lease the image does not hold.
import { describe, expect, it } from 'vitest';
import { restoreForgets } from '../../../model/checkers/restore-forgets.ts';
import { HistoryBuilder, acquire, acquired, failing, lease } from './history-builder.ts';

const busy = (h: HistoryBuilder, process: string, holder: string, token: number): number =>
  h.op(process, acquire('env', process), { kind: 'Busy', holder, token, expiresAt: 10_000 })[1];

function recovered(h: HistoryBuilder): void {
  h.op('recovery#1', { kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] }, { kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 1 });
}

describe('restore-forgets', () => {
  it('passes a Busy naming a lease granted after the recovery, and one granted before the image was taken', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 1);
    h.at(100);
    h.fault('db-restore', { imageTime: 50, blockedScopes: [] });
    busy(h, 'c2#1', 'A', 1);
    recovered(h);
    acquired(h, 'c3#1', 'env', 'C', 1_000_000_001);
    busy(h, 'c2#1', 'C', 1_000_000_001);
    expect(restoreForgets(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('fails a Busy naming a lease the recovery removed', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 1);
    h.fault('db-failover', { imageTime: 0, blockedScopes: [] });
    recovered(h);
    busy(h, 'c2#1', 'A', 1);
    const [found] = failing(restoreForgets(h.build()), 1);
    expect(found!.message).toBe('scope env: Acquire invoked at #5 was answered Busy by A with token 1, granted at #1, a lease the recovery at #4 removed');
  });

  it('fails a Busy naming a lease granted after the image was taken, without a recovery, unless a grant of unknown outcome may have given it again', () => {
    const h = new HistoryBuilder();
    h.at(10);
    acquired(h, 'c1#1', 'env', 'A', 1);
    h.at(100);
    h.fault('db-restore', { imageTime: 5, blockedScopes: [] });
    busy(h, 'c2#1', 'A', 1);
    failing(restoreForgets(h.build()), 1);
    h.invoke('c4#1', 'Acquire', acquire('env', 'A'));
    h.event('c4#1', 'info', 'Acquire', { error: 'timeout' });
    busy(h, 'c2#1', 'A', 1);
    expect(restoreForgets(h.build()).violations).toHaveLength(1);
  });

  it('judges a dispatch on its job\'s scope alike', () => {
    const h = new HistoryBuilder();
    const job = { jobId: 'j1', scope: 'env', status: 'eligible', attemptToken: 0, attempts: 0 };
    h.op('s1#1', { kind: 'SubmitJob', jobId: 'j1', scope: 'env' }, { kind: 'JobSubmitted', job });
    acquired(h, 'c1#1', 'env', 'A', 1);
    recovered(h);
    h.op('s1#1', { kind: 'DispatchJob', jobId: 'j1', holder: 'B', ttlMs: 1_000 }, { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_000 });
    const [found] = failing(restoreForgets(h.build()), 1);
    expect(found!.message).toContain('DispatchJob invoked at #6 was answered Busy by A with token 1');
  });

  it('judges AcquireAll alike, and ignores a skipped restore', () => {
    const h = new HistoryBuilder();
    h.at(10);
    h.op('c1#1', { kind: 'AcquireAll', scopes: ['env'], holder: 'A', ttlMs: 10_000 }, { kind: 'AcquiredAll', leases: [lease('env', 'A', 1, 10)] });
    h.at(100);
    h.fault('db-restore', { skipped: true, blockedScopes: [] });
    h.op('c2#1', { kind: 'AcquireAll', scopes: ['env'], holder: 'B', ttlMs: 10_000 }, { kind: 'Busy', scope: 'env', holder: 'A', token: 1 });
    expect(restoreForgets(h.build()).valid).toBe(true);
    h.fault('db-restore', { imageTime: 5, blockedScopes: [] });
    h.op('c2#1', { kind: 'AcquireAll', scopes: ['env'], holder: 'B', ttlMs: 10_000 }, { kind: 'Busy', scope: 'env', holder: 'A', token: 1 });
    failing(restoreForgets(h.build()), 1);
  });

  it('judges an answer by the last image put in place before it, and by a recovery only since then', () => {
    // A later restore to an image that holds the lease brings it back: Busy naming it is right.
    const later = new HistoryBuilder();
    later.at(10);
    acquired(later, 'c1#1', 'env', 'A', 1);
    later.at(100).fault('db-restore', { imageTime: 5, blockedScopes: [] });
    later.at(200).fault('db-restore', { imageTime: 20, blockedScopes: [] });
    later.op('c2#1', acquire('env', 'B'), { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_010 });
    expect(restoreForgets(later.build()).valid).toBe(true);
    // So does one after a recovery, to an image older than the recovery.
    const back = new HistoryBuilder();
    back.at(10);
    acquired(back, 'c1#1', 'env', 'A', 1);
    back.at(100).op('recovery#1', { kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] }, { kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 1 });
    back.at(200).fault('db-restore', { imageTime: 20, blockedScopes: [] });
    back.op('c2#1', acquire('env', 'B'), { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_010 });
    expect(restoreForgets(back.build()).valid).toBe(true);
    // The last image lacks the lease: still named.
    const lacking = new HistoryBuilder();
    lacking.at(10);
    acquired(lacking, 'c1#1', 'env', 'A', 1);
    lacking.at(100).fault('db-restore', { imageTime: 20, blockedScopes: [] });
    lacking.at(200).fault('db-restore', { imageTime: 5, blockedScopes: [] });
    lacking.op('c2#1', acquire('env', 'B'), { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_010 });
    failing(restoreForgets(lacking.build()), 1);
  });

  it('still judges by a recovery that the image put in place after it was taken from', () => {
    const h = new HistoryBuilder();
    h.at(10);
    acquired(h, 'c1#1', 'env', 'A', 1);
    h.at(100).op('recovery#1', { kind: 'AdvanceRecoveryEpoch', atLeast: 1, blockScopes: [] }, { kind: 'RecoveryAdvanced', recoveryEpoch: 1, invalidated: 1 });
    h.at(200).fault('db-failover', { imageTime: 150, blockedScopes: [] });
    h.op('c2#1', acquire('env', 'B'), { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_010 });
    failing(restoreForgets(h.build()), 1);
  });
});
