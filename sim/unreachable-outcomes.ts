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
import type { RenewalKind } from '../model/state.ts';

export interface UnreachablePair {
  /** `Command:Outcome`, one of OUTCOME_PAIRS. */
  readonly pair: string;
  /** Why no workload of a correct deployment can reach it. */
  readonly reason: string;
}

export const UNREACHABLE_OUTCOMES: ReadonlyArray<UnreachablePair> = [];

/**
 * The pairs no workload reaches on a store whose renewals only confirm (capabilities.renewal): the
 * force-release operator forces a lease only on the stall the store shows, an expiry that stopped
 * moving, and such a store shows none (sim/force-release-workload.ts): it waits the lease out.
 */
const UNREACHABLE_WHERE_RENEWALS_CONFIRM: ReadonlyArray<UnreachablePair> = [
  { pair: 'ForceRelease:ForceReleased', reason: "the store's renewals only confirm, so no lease shows the stall an operator forces on: it waits the lease out" },
  { pair: 'ForceRelease:Stale', reason: "the store's renewals only confirm, so the operator never sends the forced release that a renewal could overtake" },
];

/** The unreachable pairs for a store whose renewals are of `renewal` kind. */
export function unreachableFor(renewal: RenewalKind): ReadonlyArray<UnreachablePair> {
  return renewal === 'confirms' ? [...UNREACHABLE_OUTCOMES, ...UNREACHABLE_WHERE_RENEWALS_CONFIRM] : UNREACHABLE_OUTCOMES;
}

for (const { pair } of [...UNREACHABLE_OUTCOMES, ...UNREACHABLE_WHERE_RENEWALS_CONFIRM]) {
  if (!OUTCOME_PAIRS.includes(pair)) throw new Error(`sim/unreachable-outcomes.ts lists ${pair}, which is not a Command:Outcome pair of the port`);
}
