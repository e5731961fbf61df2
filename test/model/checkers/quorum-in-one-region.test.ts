// quorum-in-one-region (001 §187–§189): a quorum loss or a new leader while only the links between
// regions are cut is caught; one after a fault inside a region, or outside any cut, passes.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../model/history.ts';
import { quorumInOneRegion } from '../../../model/checkers/quorum-in-one-region.ts';

const faults = (...kinds: string[]): HistoryEvent[] =>
  kinds.map((f, index) => ({ index, time: index, process: 'nemesis', type: 'fault', f, value: f === 'leader-change' ? { leader: 'c2#1' } : {} }) as HistoryEvent);

describe('quorum-in-one-region', () => {
  it('fails a quorum loss and a new leader during a cut between regions alone', () => {
    expect(quorumInOneRegion(faults('wan-partition', 'quorum-loss', 'wan-heal')).valid).toBe(false);
    const verdict = quorumInOneRegion(faults('wan-partition', 'leader-change', 'wan-heal'));
    expect(verdict.violations[0]!.message).toContain('a new leader was elected (c2#1)');
  });

  it('passes a loss after a fault inside a region, and one outside any cut', () => {
    expect(quorumInOneRegion(faults('wan-partition', 'crash', 'quorum-loss', 'wan-heal')).valid).toBe(true);
    expect(quorumInOneRegion(faults('wan-partition', 'wan-heal', 'quorum-loss')).valid).toBe(true);
  });
});
