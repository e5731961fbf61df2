// A mutant hunt as gate evidence (campaign/gates/evidence.ts MutantEvidence): the simulator's hunt and
// the command-level check on the same mutant, as `gates` and a shard of `mutants` record them.

import type { StageCatch } from '../check/index.ts';
import type { MutantEvidence, SuiteEvidence } from './evidence.ts';
import type { MutantReport } from '../mutant-run.ts';
import { presentFields } from '../present-fields.ts';
import { replayLine } from '../../sim/run.ts';

export function mutantEvidence(m: MutantReport, check: StageCatch | null | undefined, durationMs: number): MutantEvidence {
  return {
    name: m.name,
    bug: m.bug,
    caught: m.caught,
    seedsTried: m.seedsTried,
    ...presentFields({ firstFailingSeed: m.firstFailingSeed, firstFailingScenario: m.firstFailingScenario, shrunkOperations: m.shrunkOperations }),
    // The counterexample may come from a later catch than the first: say which.
    ...(m.scenario === null || m.failure === null || (m.scenario === m.firstFailingScenario && m.failure.seed === m.firstFailingSeed)
      ? {}
      : { shrunkFrom: { scenario: m.scenario, seed: m.failure.seed } }),
    // The replay line replays the first catch, the run the report names as "caught at".
    ...(m.firstFailingScenario === null || m.firstFailingSeed === null ? {} : { replay: replayLine(m.firstFailingScenario, m.firstFailingSeed, `mutant:${m.name}`, 'sim') }),
    ...checkEvidence(check ?? undefined),
    catches: m.catches,
    ...presentFields({ checkOnly: m.checkOnly }),
    durationMs: Math.round(durationMs),
  };
}

function checkEvidence(check: StageCatch | undefined): Pick<MutantEvidence, 'check'> {
  if (check === undefined) return {};
  return {
    check: {
      caught: check.caught,
      ...presentFields({ firstFailureMs: check.firstFailureMs, steps: check.steps }),
      replay: check.replay,
    },
  };
}

/** The `check-mutants` suite: of the store mutants checked, how many the command-level check caught. */
export function checkMutantsSuite(checks: ReadonlyArray<StageCatch | null>, durationMs: number): SuiteEvidence {
  const checked = checks.filter((c) => c !== null);
  const caught = checked.filter((c) => c.caught).length;
  return { name: 'check-mutants', passed: caught, failed: checked.length - caught, durationMs: Math.round(durationMs) };
}
