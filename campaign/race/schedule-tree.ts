// Every interleaving of one race case, explored depth first by re-execution (stateless model
// checking, as PostgreSQL's isolation tester runs permutations and Shuttle/Coyote run DFS): each run
// replays the choices of the path so far and then takes the first choice not explored yet; after
// the run, the deepest choice with an alternative left moves on to it.
//
// Partial-order reduction with sleep sets (Godefroid): once the subtree of a choice `t` at a node
// is explored, `t` sleeps in the subtrees of the node's later choices for as long as every step
// taken there is independent of it (independence.ts), because taking it there gives an order
// that only swaps independent steps of a schedule already explored. A node all of whose
// candidates sleep ends its run's exploration: the run still finishes (it is on a real server),
// but its remaining choices branch no further. The schedules and the branches skipped are
// counted; a branch skipped stands for at least one schedule.
//
// With a preemption bound (as CHESS bounds context switches), a path switches away from a session
// that could go on at most that many times; branches past the bound are counted apart. Exhaustive
// inside server-side functions is out of reach (two calls of 15 steps each have 155 million
// orders), while most races need one or two preemptions. Sleep sets are off under a bound: the
// order a sleeping choice stands for may need more preemptions than the bound allows, so nothing
// would cover it (Coons, Musuvathi and McKinley, OOPSLA 2013).

import { classify, independent, type StepClass } from './independence.ts';

interface Node {
  readonly names: ReadonlyArray<string>;
  /** What each candidate would send, as offered (a replay must offer the same). */
  readonly offered: string;
  readonly classes: ReadonlyArray<StepClass>;
  /** Candidates asleep at this node, by session name, with the class of their pending step. */
  readonly sleep: ReadonlyMap<string, StepClass>;
  /** Choices whose subtrees are explored. */
  readonly done: Set<number>;
  /** The session of the step before this node, and the preemptions the path made before it. */
  readonly previous: string | null;
  readonly preemptions: number;
  chosen: number;
}

export class ScheduleNondeterminismError extends Error {
  override readonly name = 'ScheduleNondeterminismError';
}

export interface TreeCounts {
  /** Runs made (schedules executed). */
  readonly schedules: number;
  /** Branches not taken because every order through them only swaps independent steps. */
  readonly pruned: number;
  /** Branches not taken because they pass the preemption bound. */
  readonly beyondBound: number;
}

export class ScheduleTree {
  private stack: Node[] = [];
  private depth = 0;
  /** The run reached a node whose candidates all sleep: its later choices do not branch. */
  private redundant = false;
  private runs = 0;
  private skipped = 0;
  private beyond = 0;

  /** `preemptionBound`: at most this many preemptions a path (null: every path). */
  constructor(private readonly preemptionBound: number | null = null) {}

  /** What choosing candidate `i` at `node` costs in preemptions. */
  private cost(names: ReadonlyArray<string>, previous: string | null, i: number): number {
    return previous !== null && names.includes(previous) && names[i] !== previous ? 1 : 0;
  }

  private allowed(node: Pick<Node, 'names' | 'previous' | 'preemptions'>, i: number): boolean {
    return this.preemptionBound === null || node.preemptions + this.cost(node.names, node.previous, i) <= this.preemptionBound;
  }

  /** Resets the position for a new run along the current path. */
  startRun(): void {
    this.depth = 0;
    this.redundant = false;
    this.runs++;
  }

  /** The chooser of the current run (adapters/interleaving.ts Chooser). */
  readonly choose = (names: ReadonlyArray<string>, steps?: ReadonlyArray<string | null>): number => {
    const d = this.depth++;
    if (this.redundant) return 0;
    const offered = JSON.stringify([names, steps ?? []]);
    const known = this.stack[d];
    if (known !== undefined) {
      if (known.offered !== offered) {
        throw new ScheduleNondeterminismError(`step ${d + 1} offered ${names.join(', ')} where an earlier run of the same path offered ${known.names.join(', ')}${known.names.join() === names.join() ? ' (with other statements)' : ''}`);
      }
      return known.chosen;
    }
    const classes = names.map((_, i) => classify(steps?.[i] ?? null));
    const parent = d === 0 ? null : this.stack[d - 1]!;
    const sleep = parent === null || this.preemptionBound !== null ? new Map<string, StepClass>() : this.childSleep(parent);
    const previous = parent === null ? null : parent.names[parent.chosen]!;
    const preemptions = parent === null ? 0 : parent.preemptions + this.cost(parent.names, parent.previous, parent.chosen);
    const open = (i: number): boolean => !sleep.has(names[i]!) && this.allowed({ names, previous, preemptions }, i);
    // Going on with the same session first: the path with no preemption is the first explored.
    const same = previous === null ? -1 : names.indexOf(previous);
    const chosen = same >= 0 && open(same) ? same : names.findIndex((_, i) => open(i));
    if (chosen < 0) {
      this.redundant = true;
      return 0;
    }
    this.stack.push({ names, offered, classes, sleep, done: new Set(), previous, preemptions, chosen });
    return chosen;
  };

  /** What sleeps below `node`'s current choice: its sleepers and its explored choices, independent of the choice. */
  private childSleep(node: Node): Map<string, StepClass> {
    const taken = node.classes[node.chosen]!;
    const takenName = node.names[node.chosen]!;
    const sleep = new Map<string, StepClass>();
    for (const [name, cls] of node.sleep) if (name !== takenName && independent(cls, taken)) sleep.set(name, cls);
    for (const i of node.done) if (node.names[i] !== takenName && independent(node.classes[i]!, taken)) sleep.set(node.names[i]!, node.classes[i]!);
    return sleep;
  }

  /** The run ended: it must have made at least the choices of the path it replayed. */
  endRun(): void {
    if (this.depth < this.stack.length) throw new ScheduleNondeterminismError(`the run ended after ${this.depth} steps where an earlier run of the same path went on to step ${this.stack.length}`);
  }

  /** Moves to the next path to run; false when every path is explored. */
  advance(): boolean {
    while (this.stack.length > 0) {
      const node = this.stack[this.stack.length - 1]!;
      node.done.add(node.chosen);
      const next = node.names.findIndex((name, i) => !node.done.has(i) && !node.sleep.has(name) && this.allowed(node, i));
      if (next >= 0) {
        node.chosen = next;
        return true;
      }
      this.skipped += node.names.filter((name) => node.sleep.has(name)).length;
      this.beyond += node.names.filter((name, i) => !node.sleep.has(name) && !this.allowed(node, i)).length;
      this.stack.pop();
    }
    return false;
  }

  /** The choices of the current path, as session names (a schedule's prefix). */
  path(): string[] {
    return this.stack.map((node) => node.names[node.chosen]!);
  }

  counts(): TreeCounts {
    return { schedules: this.runs, pruned: this.skipped, beyondBound: this.beyond };
  }
}
