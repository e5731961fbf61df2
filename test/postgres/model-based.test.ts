// The PostgreSQL store under the command-level check (campaign/check/): random command sequences
// with clock steps, caller skew, snapshots and restores give, outcome for outcome, what the
// reference state machine (model/step.ts) gives. A disagreement shrinks to a few steps and is
// printed with both outcomes.

import { expect, test } from 'vitest';
import { checkStore, formatCounterexample } from '../../campaign/check/index.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();

test('the PostgreSQL store returns the reference model outcome for every command of a random sequence', async () => {
  const result = await checkStore({ factory: (options) => pg.store({ ...options, poolSize: 1 }), runs: 300, seed: 20261201 });
  const detail = result.verdict === 'fail' ? formatCounterexample(result.steps).join('\n') : result.verdict === 'undecided' ? result.reason : '';
  expect(result.verdict, detail).toBe('pass');
}, 180_000);
