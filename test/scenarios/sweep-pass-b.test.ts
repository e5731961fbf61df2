// seed 000 §277–§302: every scenario the correct implementation must pass has no violation over 100 seeds (500: `npm run sweep:all`) (second half of the catalogue).
import { describe, expect, it } from 'vitest';
import { listScenarios } from '../../scenarios/index.ts';
import { sweep, SWEEP_SEEDS } from './sweep.ts';

const passing = listScenarios().filter((s) => s.expect === 'pass');
const half = passing.slice(Math.ceil(passing.length / 2));

describe('must-pass scenarios (b)', () => {
  for (const scenario of half) {
    it(`${scenario.name} (${scenario.sources.join(', ')}) holds over ${SWEEP_SEEDS} seeds`, async () => {
      const outcome = await sweep(scenario, SWEEP_SEEDS);
      expect(outcome.firstMessage).toBeNull();
      expect(outcome.violated).toEqual([]);
      expect(outcome.undecided).toEqual([]);
    });
  }
});
