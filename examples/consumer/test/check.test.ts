// The README's recipe "The command-level check against your store", word for word (the testbed's
// test/docs-recipes.test.ts fails if the two differ).

import { checkStore, formatCounterexample } from 'concurrency-testbed';
import { expect, test } from 'vitest';
import openStore from '../src/store.ts';

test('my store agrees with the reference model, command by command', async () => {
  const result = await checkStore({ factory: openStore, runs: 2_000 });
  const detail = result.verdict === 'fail' ? `${formatCounterexample(result.steps).join('\n')}\nreplay with seed ${result.seed}, path ${result.path}` : '';
  expect(result.verdict, detail).toBe('pass');
}, 120_000);
