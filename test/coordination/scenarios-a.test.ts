// seed 001 §259–§266, §276–§277: every coordination scenario (first half) passes 200 seeds on the memory store and shows the fault it is about.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { COORDINATION_SEEDS, sweepCoordination } from './coordination-sweep.ts';
import { FIRST_HALF } from './scenarios.ts';

describe('seed 001 scenarios (first half)', () => {
  for (const { name, evidence } of FIRST_HALF) {
    it(`${name} (${loadScenario(name).sources.join(', ')}) holds over ${COORDINATION_SEEDS} seeds`, async () => {
      const sweep = await sweepCoordination(name);
      expect(sweep.failures).toEqual([]);
      evidence(sweep);
    });
  }
});
