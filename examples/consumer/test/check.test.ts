// The command-level check: random command sequences against this store and the reference model
// in lockstep, shrunk to the shortest sequence on which they answer differently.

import { checkStore, formatCounterexample } from 'concurrency-testbed';
import { expect, test } from 'vitest';
import { openStore, openUnfencedStore } from '../src/store.ts';

test('the store answers every command as the reference model does', async () => {
  const result = await checkStore({ factory: openStore, runs: 200, seed: 1 });
  expect(result).toMatchObject({ verdict: 'pass', runs: 200 });
});

test('the unfenced store is caught on a short sequence', async () => {
  const result = await checkStore({ factory: openUnfencedStore, runs: 500, seed: 1 });
  if (result.verdict !== 'fail') throw new Error(`expected a divergence, got ${JSON.stringify(result)}`);
  expect(result.sequence.length).toBeLessThanOrEqual(10);
  expect(formatCounterexample(result.steps).join('\n')).toContain('Mutate');
});
