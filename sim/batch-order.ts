// Which states of the reference model explain a batch of concurrent store calls (controlled
// interleaving, sim/database-node.ts). The calls of a batch overlapped in time, so any order of
// them is a legal linearization, and where store time passed during the batch each call may have
// read any store time it ran through. Different orders and times can give the same answers but
// leave different states behind (an aging waiter's enqueue time is in no answer), so the search
// keeps every distinct state that explains the answers, not the first: the shadow model follows
// all of them until later answers tell them apart.
//
// The search goes level by level, one more call placed per level, and merges nodes that placed
// the same calls and reached equal states (commuting calls reach equal states in either order),
// so its size follows the distinct states, not the orders. It gives up, undecided rather than
// failing, when it grows past its budget.

import { sameState } from './state-equal.ts';
import type { Command } from '../model/commands.ts';
import { sameData } from '../model/data-equal.ts';
import type { ModelState } from '../model/state.ts';
import { step } from '../model/step.ts';

export interface BatchEntry {
  readonly command: Command;
  readonly actual: unknown;
  readonly process: string;
  /** The store times the call may have read (default: the batch's one store time). */
  readonly storeTimes?: ReadonlyArray<number>;
}

export type BatchOrder =
  | { readonly kind: 'explained'; readonly states: ReadonlyArray<ModelState> }
  | { readonly kind: 'unexplained'; readonly steps: number }
  | { readonly kind: 'undecided'; readonly why: string };

/** Model steps the search may take for one batch. */
const BUDGET = 50_000;
/** Distinct (calls placed, state) nodes one level of the search may hold. */
const MAX_NODES = 4_096;

/** Adds `state` under `placed` unless an equal state is there already. */
function addDistinct(level: Map<string, ModelState[]>, placed: string, state: ModelState): boolean {
  const states = level.get(placed);
  if (states === undefined) {
    level.set(placed, [state]);
    return true;
  }
  if (states.some((other) => sameState(other, state))) return false;
  states.push(state);
  return true;
}

/** Every distinct state, reached from one of `starts`, in which some order of `entries` gives all their answers. */
export function explainBatch(starts: ReadonlyArray<ModelState>, entries: ReadonlyArray<BatchEntry>, now: number, budget = BUDGET): BatchOrder {
  let level = new Map<string, ModelState[]>([['0'.repeat(entries.length), []]]);
  for (const start of starts) addDistinct(level, '0'.repeat(entries.length), start);
  let steps = 0;
  try {
    for (let placedCount = 0; placedCount < entries.length; placedCount++) {
      const next = new Map<string, ModelState[]>();
      let nodes = 0;
      for (const [placed, states] of level) {
        for (const state of states) {
          for (let i = 0; i < entries.length; i++) {
            if (placed[i] === '1') continue;
            const { command, actual, storeTimes } = entries[i]!;
            for (const at of storeTimes ?? [now]) {
              if (++steps > budget) return { kind: 'undecided', why: `the orders of ${entries.length} concurrent calls were not settled within ${budget} model steps` };
              const stepped = step(state, command, at);
              if (!sameData(actual, stepped.outcome)) continue;
              if (addDistinct(next, `${placed.slice(0, i)}1${placed.slice(i + 1)}`, stepped.state) && ++nodes > MAX_NODES) {
                return { kind: 'undecided', why: `more than ${MAX_NODES} distinct model states explain part of a batch of ${entries.length} concurrent calls` };
              }
            }
          }
        }
      }
      if (next.size === 0) return { kind: 'unexplained', steps };
      level = next;
    }
  } catch (error) {
    return { kind: 'undecided', why: `the reference model rejected a call of the batch: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { kind: 'explained', states: [...level.values()].flat() };
}
