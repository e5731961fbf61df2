// artifact-from-cas (001 §4, §278, §340): an effect without a fetch of the job's artifact that the
// artifact store answered, in that attempt, is caught; one after such a fetch passes, and a run
// without artifacts is not judged.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../model/history.ts';
import { artifactFromCas } from '../../../model/checkers/artifact-from-cas.ts';

type Draft = Omit<HistoryEvent, 'index'>;
const op = (process: string, type: string, f: string, value: unknown): Draft => ({ time: 0, process, type, f, value }) as Draft;
const indexed = (drafts: ReadonlyArray<Draft>): HistoryEvent[] => drafts.map((event, index) => ({ ...event, index }) as HistoryEvent);

const fetch = (process: string, answered: boolean): Draft[] => [
  op(process, 'invoke', 'cas-fetch', { job: 'op1', intentId: 'op1/e', digest: 'sha256:op1' }),
  op(process, answered ? 'ok' : 'fail', 'cas-fetch', answered ? { digest: 'sha256:op1' } : { reason: 'unavailable' }),
];
const effect = (process: string): Draft[] => [op(process, 'invoke', 'effect', { intentId: 'op1/e' }), op(process, 'ok', 'effect', { applied: true })];

describe('artifact-from-cas', () => {
  it('fails an effect after a fetch the store did not answer, and one by an attempt that never fetched', () => {
    expect(artifactFromCas(indexed([...fetch('c1#1:a1', false), ...effect('c1#1:a1')])).valid).toBe(false);
    const other = artifactFromCas(indexed([...fetch('c1#1:a1', true), ...effect('c1#1:a2')]));
    expect(other.valid).toBe(false);
    expect(other.violations[0]!.message).toContain('c1#1:a2 made effect op1/e');
  });

  it('passes an effect after its own answered fetch, and a run whose jobs have no artifacts', () => {
    expect(artifactFromCas(indexed([...fetch('c1#1:a1', true), ...effect('c1#1:a1')])).valid).toBe(true);
    expect(artifactFromCas(indexed(effect('c1#1:a1'))).valid).toBe(true);
  });
});
