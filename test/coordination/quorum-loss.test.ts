// seed 001 §261, §71–§77, §98: under a symmetric partition there is no coordination write, new scheduling stops within the step-down bound, attempts keep writing under their database leases, and scheduling resumes when quorum returns.
import { describe, expect, it } from 'vitest';
import type { FaultEvent, HistoryEvent } from '../../model/history.ts';
import { memoryRuns } from './coordination-sweep.ts';
import { LEASE_CREATING } from '../../model/checkers/lease-creations.ts';

const SEEDS = 30;

function guardOf(event: HistoryEvent): unknown {
  return event.type === 'invoke' ? (event.value as { guard?: unknown }).guard : undefined;
}

describe('quorum loss', () => {
  it(`stops coordination writes and new scheduling, while existing attempts continue (${SEEDS} seeds)`, async () => {
    for await (const { seed, history } of memoryRuns('quorum-loss', SEEDS)) {
      const loss = history.find((e): e is FaultEvent => e.type === 'fault' && e.f === 'quorum-loss');
      expect(loss, `seed ${seed} loses quorum`).toBeDefined();
      const restored = history.find((e) => e.type === 'fault' && e.f === 'quorum-restored' && e.index > loss!.index);
      expect(restored, `seed ${seed} regains quorum`).toBeDefined();
      const during = history.slice(loss!.index + 1, restored!.index);
      const bound = loss!.value['stepDownBoundMs'] as number;

      // No coordination write: nobody is elected while the voters are split (§72, §98).
      expect(during.filter((e) => e.type === 'fault' && e.f === 'leader-change')).toEqual([]);
      // New scheduler-authority work stops within the step-down bound (§75).
      const lateLeases = during.filter((e) => LEASE_CREATING.has(e.f) && guardOf(e) !== undefined && e.time > loss!.time + bound);
      expect(lateLeases).toEqual([]);
      // Attempts leased before the loss finish their writes under their database leases (§76–§77).
      const attemptWrites = during.filter((e) => e.type === 'ok' && e.process.includes(':a') && (e.f === 'Mutate' || e.f === 'Release'));
      expect(attemptWrites.length, `seed ${seed}: attempts write during the loss`).toBeGreaterThan(0);
      // After quorum returns, a leader is elected and creates guarded leases again.
      const after = history.slice(restored!.index + 1);
      expect(after.some((e) => e.type === 'fault' && e.f === 'leader-change')).toBe(true);
      expect(after.some((e) => LEASE_CREATING.has(e.f) && guardOf(e) !== undefined)).toBe(true);
    }
  });
});
