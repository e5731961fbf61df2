// seed 001 §90, §95–§96, §262: a deposed leader that keeps running gets the typed Fenced outcome for its guarded lease creation and stops its role at once: no later lease creation under the fenced epoch.
import { describe, expect, it } from 'vitest';
import { incarnationOfProcess } from '../../model/node-incarnation.ts';
import { memoryRuns } from './coordination-sweep.ts';
import { LEASE_CREATING } from '../../model/checkers/lease-creations.ts';

const SEEDS = 40;

interface Guarded {
  readonly guard?: { readonly role: string; readonly epoch: number };
}

describe('stale leader', () => {
  it(`is fenced by epoch and creates no lease under the fenced epoch afterwards (${SEEDS} seeds)`, async () => {
    let fencedSeeds = 0;
    for await (const { seed, history } of memoryRuns('stale-leader-epoch', SEEDS)) {
      const invoked = new Map<string, Guarded>();
      /** Incarnation → the epoch its lease creation was fenced under. */
      const fencedAt = new Map<string, number>();
      for (const event of history) {
        if (!LEASE_CREATING.has(event.f)) continue;
        const actor = incarnationOfProcess(event.process);
        if (event.type === 'invoke') {
          const guard = (event.value as Guarded).guard;
          invoked.set(event.process, event.value as Guarded);
          const fenced = fencedAt.get(actor);
          expect(fenced !== undefined && guard !== undefined && guard.epoch <= fenced, `seed ${seed} #${event.index}: ${actor} creates a lease after being fenced under epoch ${fenced}`).toBe(false);
          continue;
        }
        if (event.type !== 'ok' || (event.value as { kind: string }).kind !== 'Fenced') continue;
        const guard = invoked.get(event.process)?.guard;
        expect(guard, `seed ${seed} #${event.index}: only a guarded command is fenced`).toBeDefined();
        expect((event.value as { currentEpoch: number }).currentEpoch).toBeGreaterThan(guard!.epoch);
        fencedAt.set(actor, guard!.epoch);
      }
      if (fencedAt.size > 0) fencedSeeds++;
    }
    expect(fencedSeeds).toBeGreaterThan(SEEDS / 2);
  });
});
