// The space of race cases, a pure function of the kinds a store implements and the depth: every
// multiset of `depth` kinds, fewest distinct kinds first (ordered tuples where the calls arrive at different times, since
// which arrives first then matters), each from every starting state (states.ts) that gives the
// calls a behaviour no earlier state gave them. Behaviour is what the calls answer in each serial
// order from the state (whole outcomes: tokens, versions, expiries): a state in which every order
// answers exactly as from an earlier state is left out (what the states themselves hold differs
// from state to state by construction, so it cannot tell two behaviours apart). `--shard i/n` takes every n-th case, from the i-th.

import type { RenewalKind } from '../../model/state.ts';
import type { Command, CommandKind } from '../../model/commands.ts';
import { step } from '../../model/step.ts';
import { CASE_ACTORS, pickCommand, type CaseActors } from './commands.ts';
import { buildState, RACE_STATES, type BuiltState, type RaceState } from './states.ts';

export interface RaceCase {
  readonly index: number;
  readonly kinds: ReadonlyArray<CommandKind>;
  readonly state: RaceState;
  readonly actors: CaseActors;
  readonly built: BuiltState;
  readonly commands: ReadonlyArray<Command>;
  readonly arrivals: ReadonlyArray<number>;
}

function multisets(kinds: ReadonlyArray<CommandKind>, depth: number, from = 0): CommandKind[][] {
  if (depth === 0) return [[]];
  const out: CommandKind[][] = [];
  for (let i = from; i < kinds.length; i++) for (const rest of multisets(kinds, depth - 1, i)) out.push([kinds[i]!, ...rest]);
  return out;
}

/**
 * The multisets with fewest distinct kinds first (two calls of one kind: two contenders, a
 * duplicate request, a retry, the commonest race), each group in kind order; so a run that stops
 * at its first failure reaches every kind's race with itself before any mixed pair.
 */
function caseOrder(kinds: ReadonlyArray<CommandKind>, depth: number): CommandKind[][] {
  const all = multisets(kinds, depth);
  const distinct = (set: ReadonlyArray<CommandKind>): number => new Set(set).size;
  return all.map((set, i) => ({ set, i })).sort((a, b) => distinct(a.set) - distinct(b.set) || a.i - b.i).map(({ set }) => set);
}

function orderings(kinds: ReadonlyArray<CommandKind>): CommandKind[][] {
  if (kinds.length <= 1) return [[...kinds]];
  const out = new Map<string, CommandKind[]>();
  kinds.forEach((kind, i) => {
    for (const rest of orderings([...kinds.slice(0, i), ...kinds.slice(i + 1)])) out.set([kind, ...rest].join(','), [kind, ...rest]);
  });
  return [...out.values()];
}

/** The calls of `kinds` from `built`, or null when the state's timing does not apply to it. */
function callsOf(kinds: ReadonlyArray<CommandKind>, built: BuiltState, actors: CaseActors): { commands: Command[]; arrivals: number[] } | null {
  const arrivals = built.arrivals(kinds.length);
  if (arrivals === null) return null;
  const commands: Command[] = [];
  kinds.forEach((kind, slot) => commands.push(pickCommand(kind, built.model, arrivals[slot]!, slot, commands, actors)));
  return { commands, arrivals };
}

/** Every order of the slots 0..n-1. */
function permutations(n: number): number[][] {
  if (n <= 1) return [[...Array(n).keys()]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, at) => [...p.slice(0, at), n - 1, ...p.slice(at)]));
}

/** What the calls answer in every serial order from the state (each at its arrival). */
function behaviour(built: BuiltState, commands: ReadonlyArray<Command>, arrivals: ReadonlyArray<number>): string {
  return JSON.stringify(
    permutations(commands.length).map((order) => {
      let state = built.model;
      const answers: unknown[] = [];
      try {
        for (const slot of order) {
          const next = step(state, commands[slot]!, arrivals[slot]!);
          answers[slot] = next.outcome;
          state = next.state;
        }
        return answers;
      } catch (error) {
        return `rejected: ${error instanceof Error ? error.message : String(error)}`;
      }
    }),
  );
}

/** The case of `kinds` (in arrival order) from the state named `stateName`, or null when its timing does not apply. */
export function caseOf(kinds: ReadonlyArray<CommandKind>, stateName: string, actors: CaseActors, renewal: RenewalKind = 'extends'): RaceCase | null {
  const state = RACE_STATES.find((s) => s.name === stateName);
  if (state === undefined) return null;
  const built = buildState(state, renewal);
  const calls = callsOf(kinds, built, actors);
  return calls === null ? null : { index: 0, kinds, state, actors, built, ...calls };
}

/** Every case of the space, in a fixed order (the shard plan's input). */
export function raceCases(
  kinds: ReadonlyArray<CommandKind>,
  depth: number,
  implementedKinds: ReadonlyArray<CommandKind> = kinds,
  states: ReadonlyArray<RaceState> = RACE_STATES,
  renewal: RenewalKind = 'extends',
): RaceCase[] {
  // A starting state is built with any kind the store implements, not only the kinds raced.
  const implemented = new Set(implementedKinds);
  const usable = states.filter((s) => s.chain.every((kind) => implemented.has(kind))).map((state) => ({ state, built: buildState(state, renewal) }));
  const cases: RaceCase[] = [];
  for (const set of caseOrder(kinds, depth)) {
    const seen = new Set<string>();
    for (const { state, built } of usable) {
      for (const ordered of state.timing === 'expiring' ? orderings(set) : [set]) {
        for (const actors of CASE_ACTORS) {
          const calls = callsOf(ordered, built, actors);
          if (calls === null) continue;
          const signature = behaviour(built, calls.commands, calls.arrivals);
          if (seen.has(signature)) continue;
          seen.add(signature);
          cases.push({ index: cases.length, kinds: ordered, state, actors, built, ...calls });
        }
      }
    }
  }
  return cases;
}

/** Shard `i` of `n` (1-based): every n-th case from the i-th. */
export function shardOf<T extends { readonly index: number }>(cases: ReadonlyArray<T>, shard: { readonly index: number; readonly count: number }): T[] {
  return cases.filter((c) => c.index % shard.count === shard.index - 1);
}
