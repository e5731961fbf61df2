// seed 000 §205–§206, §259–§261: historical ownership is retained. Every lease the store said it
// ended before an Inspect appears among that Inspect's tombstones, unless a failover or restore
// put back an image taken before the end.
import { describe, expect, it } from 'vitest';
import { historyRetained } from '../../../model/checkers/history-retained.ts';
import { HistoryBuilder } from './history-builder.ts';

const tombstone = (token: number) => ({ scope: 'env', holder: 'a', token, endedAt: 20, cause: 'released' });
const view = (tombstones: ReadonlyArray<unknown>) => ({ kind: 'Snapshot', view: { recoveryEpoch: 0, leases: [], tokens: [], tombstones, waiters: [], capacities: [], permits: [], reservations: [], idempotency: [], intents: [], aggregates: [] } });

function released(h: HistoryBuilder): void {
  h.at(0).op('c1#1', { kind: 'Acquire', scope: 'env', holder: 'a', ttlMs: 1_000 }, { kind: 'Acquired', lease: { scope: 'env', holder: 'a', token: 1, acquiredAt: 0, expiresAt: 1_000 } });
  h.at(20).op('c1#1', { kind: 'Release', scope: 'env', holder: 'a', token: 1 }, { kind: 'Released', token: 1 });
}

describe('history-retained', () => {
  it('passes an Inspect that lists the ended lease, and one sent before the end', () => {
    const h = new HistoryBuilder();
    h.at(10).op('ops', { kind: 'Inspect' }, view([]));
    released(h);
    h.at(30).op('ops', { kind: 'Inspect' }, view([tombstone(1)]));
    expect(historyRetained(h.build()).valid).toBe(true);
  });

  it('fails an Inspect after the end that no longer lists it', () => {
    const h = new HistoryBuilder();
    released(h);
    h.at(30).op('ops', { kind: 'Inspect' }, view([]));
    const verdict = historyRetained(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.message).toMatch(/lists no tombstone for the lease of env under token 1/);
  });

  it('excuses an end that a restore rolled back with its image, but not one before the image', () => {
    const rolledBack = new HistoryBuilder();
    released(rolledBack);
    rolledBack.at(100).fault('db-restore', { snapshotAgeMs: 90, imageTime: 10, recoveryEpoch: true, blockedScopes: [] });
    rolledBack.at(110).op('recovery', { kind: 'Inspect' }, view([]));
    expect(historyRetained(rolledBack.build()).valid).toBe(true);
    const kept = new HistoryBuilder();
    released(kept);
    kept.at(100).fault('db-restore', { snapshotAgeMs: 50, imageTime: 50, recoveryEpoch: true, blockedScopes: [] });
    kept.at(110).op('recovery', { kind: 'Inspect' }, view([]));
    expect(historyRetained(kept.build()).valid).toBe(false);
  });
});
