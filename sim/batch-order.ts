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
//
// A caller that does not compare answers as data (a store whose fences are not integers, named
// per serial order by campaign/fences/model-fences.ts) reads each call itself: the search then
// keeps, with each state, the context that reading goes on with, and merges only nodes whose
// states and contexts are both equal.

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

/** One node of the search: a model state and what its reading of the answers goes on with. */
export interface Explained<C> {
  readonly state: ModelState;
  readonly context: C;
}

/** How a call the store answered steps the model: every state (with its context) in which the answer fits; none when it does not. */
export type CallReader<C> = (state: ModelState, context: C, entry: BatchEntry, at: number) => ReadonlyArray<Explained<C>>;

export type BatchExplanation<C> =
  | { readonly kind: 'explained'; readonly nodes: ReadonlyArray<Explained<C>> }
  | { readonly kind: 'unexplained'; readonly steps: number }
  | { readonly kind: 'undecided'; readonly why: string };

/** The call as sent, its answer compared as data. */
const asData: CallReader<null> = (state, _context, { command, actual }, at) => {
  const stepped = step(state, command, at);
  return sameData(actual, stepped.outcome) ? [{ state: stepped.state, context: null }] : [];
};

/** Every distinct state, reached from one of `starts`, in which some order of `entries` gives all their answers. */
export function explainBatch(starts: ReadonlyArray<ModelState>, entries: ReadonlyArray<BatchEntry>, now: number, budget = BUDGET): BatchOrder {
  const found = explainBatchWith(starts.map((state) => ({ state, context: null })), entries, now, asData, () => true, budget);
  return found.kind === 'explained' ? { kind: 'explained', states: found.nodes.map((node) => node.state) } : found;
}

/** `explainBatch` with each call read by `read`, and nodes merged only when `sameContext` says their contexts are equal. */
export function explainBatchWith<C>(
  starts: ReadonlyArray<Explained<C>>,
  entries: ReadonlyArray<BatchEntry>,
  now: number,
  read: CallReader<C>,
  sameContext: (a: C, b: C) => boolean,
  budget = BUDGET,
): BatchExplanation<C> {
  /** Adds `node` under `placed` unless an equal one is there already. */
  const addDistinct = (level: Map<string, Array<Explained<C>>>, placed: string, node: Explained<C>): boolean => {
    const nodes = level.get(placed);
    if (nodes === undefined) {
      level.set(placed, [node]);
      return true;
    }
    if (nodes.some((other) => sameState(other.state, node.state) && sameContext(other.context, node.context))) return false;
    nodes.push(node);
    return true;
  };
  let level = new Map<string, Array<Explained<C>>>([['0'.repeat(entries.length), []]]);
  for (const start of starts) addDistinct(level, '0'.repeat(entries.length), start);
  let steps = 0;
  try {
    for (let placedCount = 0; placedCount < entries.length; placedCount++) {
      const next = new Map<string, Array<Explained<C>>>();
      let count = 0;
      for (const [placed, nodes] of level) {
        for (const node of nodes) {
          for (let i = 0; i < entries.length; i++) {
            if (placed[i] === '1') continue;
            const entry = entries[i]!;
            for (const at of entry.storeTimes ?? [now]) {
              if (++steps > budget) return { kind: 'undecided', why: `the orders of ${entries.length} concurrent calls were not settled within ${budget} model steps` };
              for (const stepped of read(node.state, node.context, entry, at)) {
                if (addDistinct(next, `${placed.slice(0, i)}1${placed.slice(i + 1)}`, stepped) && ++count > MAX_NODES) {
                  return { kind: 'undecided', why: `more than ${MAX_NODES} distinct model states explain part of a batch of ${entries.length} concurrent calls` };
                }
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
  return { kind: 'explained', nodes: [...level.values()].flat() };
}
