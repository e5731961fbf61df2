// The command-level check finds a bug: the unfenced store (src/store.ts) diverges from the
// reference model on a short sequence, shrunk and printed as numbered steps.

import { checkStore, formatCounterexample } from 'concurrency-testbed';
import { expect, test } from 'vitest';
import { openUnfencedStore } from '../src/store.ts';

test('the unfenced store is caught on a short sequence', async () => {
  const result = await checkStore({ factory: openUnfencedStore, runs: 500, seed: 1 });
  if (result.verdict !== 'fail') throw new Error(`expected a divergence, got ${JSON.stringify(result)}`);
  expect(result.sequence.length).toBeLessThanOrEqual(10);
  expect(formatCounterexample(result.steps).join('\n')).toContain('Mutate');
}, 60_000);
