// The Command:Outcome pairs of model/outcome-kinds.ts that no must-pass scenario reaches, each with
// the reason no workload can. Coverage (sim/coverage.ts) lists them apart from the pairs a sweep
// missed, so that `missing` names only rules a workload could judge and did not.
//
// The list is empty: every pair the rule book can answer is reached by a must-pass scenario.
// `retried-and-late-requests` (scenarios/catalog-retries.ts) reaches the pairs only a retried or
// late command meets, and the invalid requests of a misbehaving client (sim/misbehaving-client.ts)
// reach the `Rejected` and `Denied` answers a correct controller never asks for. A pair goes here
// only with the reason no deployment can produce it (say a store-only outcome such as quarantine,
// were it a kind of its own), never because a sweep was too short to reach it.

import { OUTCOME_PAIRS } from '../model/outcome-kinds.ts';

export interface UnreachablePair {
  /** `Command:Outcome`, one of OUTCOME_PAIRS. */
  readonly pair: string;
  /** Why no workload of a correct deployment can reach it. */
  readonly reason: string;
}

export const UNREACHABLE_OUTCOMES: ReadonlyArray<UnreachablePair> = [];

for (const { pair } of UNREACHABLE_OUTCOMES) {
  if (!OUTCOME_PAIRS.includes(pair)) throw new Error(`sim/unreachable-outcomes.ts lists ${pair}, which is not a Command:Outcome pair of the port`);
}
