// quorum-in-one-region (001 §187–§189): a cut between regions that leaves no region with a
// majority of the voters is caught; voters gathered in one region pass, whatever else happens.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../model/history.ts';
import { quorumInOneRegion } from '../../../model/checkers/quorum-in-one-region.ts';

const cut = (regions: string[][], voters: string[]): HistoryEvent =>
  ({ index: 0, time: 0, process: 'nemesis', type: 'fault', f: 'wan-partition', value: { regions, voters, durationMs: 100 } }) as HistoryEvent;

describe('quorum-in-one-region', () => {
  it('fails a cut that leaves no region with a majority of the voters', () => {
    const verdict = quorumInOneRegion([cut([['c1', 'c4'], ['c2', 'c5'], ['c3']], ['c1', 'c2', 'c3'])]);
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toContain('[c1] [c2] [c3]');
  });

  it('passes voters with a majority in one region', () => {
    expect(quorumInOneRegion([cut([['c1', 'c2', 'c3'], ['c4'], ['c5']], ['c1', 'c2', 'c3'])]).valid).toBe(true);
    expect(quorumInOneRegion([cut([['c1', 'c2'], ['c3', 'c4']], ['c1', 'c2', 'c3'])]).valid).toBe(true);
  });
});
