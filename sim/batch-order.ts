// Which order of a batch of concurrent store calls explains the store's answers (controlled
// interleaving, sim/database-node.ts). The calls of a batch overlapped in time, so any order of
// them is a legal linearization: the search steps the reference model through the orders depth
// first, the order the calls finished in first, and drops an order at its first answer that the
// model does not give. It stops at the first order that explains every answer (orders that
// explain the same answers of commuting calls leave equal states), and gives up, undecided
// rather than failing, when the search grows past its budget.

import type { Command } from '../model/commands.ts';
import { sameData } from '../model/data-equal.ts';
import type { ModelState } from '../model/state.ts';
import { step } from '../model/step.ts';

export interface BatchEntry {
  readonly command: Command;
  readonly actual: unknown;
  readonly process: string;
}

export type BatchOrder =
  | { readonly kind: 'explained'; readonly state: ModelState }
  | { readonly kind: 'unexplained'; readonly steps: number }
  | { readonly kind: 'undecided'; readonly why: string };

/** Model steps the search may take for one batch. */
const BUDGET = 50_000;

export function explainBatch(start: ModelState, entries: ReadonlyArray<BatchEntry>, now: number, budget = BUDGET): BatchOrder {
  const used = new Array<boolean>(entries.length).fill(false);
  let steps = 0;
  const search = (state: ModelState, placed: number): ModelState | null | 'budget' => {
    if (placed === entries.length) return state;
    for (let i = 0; i < entries.length; i++) {
      if (used[i]) continue;
      if (++steps > budget) return 'budget';
      const { command, actual } = entries[i]!;
      const next = step(state, command, now);
      if (!sameData(actual, next.outcome)) continue;
      used[i] = true;
      const found = search(next.state, placed + 1);
      used[i] = false;
      if (found !== null) return found;
    }
    return null;
  };
  let found;
  try {
    found = search(start, 0);
  } catch (error) {
    return { kind: 'undecided', why: `the reference model rejected a call of the batch: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (found === 'budget') return { kind: 'undecided', why: `no order of ${entries.length} concurrent calls was settled within ${budget} model steps` };
  return found === null ? { kind: 'unexplained', steps } : { kind: 'explained', state: found };
}
