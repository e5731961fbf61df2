// The reference model as a shadow store (model/step.ts): every command the store executes during
// a run is also stepped on the model, at the same store time, and the two outcomes must agree.
// The first disagreement is a `differential` violation naming the command and both outcomes.
// The shadow follows the store's durable state through simulated snapshots and restores; where
// it cannot know what the store did (an unknown outcome, durable state replaced by a real fault),
// it stops and says why, so that nothing after that point is judged against it. After concurrent
// calls it may follow several states, each of which explains every answer so far
// (sim/batch-order.ts); an answer is a divergence when no state it follows gives it.

import type { Command } from '../model/commands.ts';
import { sameData } from '../model/data-equal.ts';
import { initialState, type ModelState, type RenewalKind } from '../model/state.ts';
import { step } from '../model/step.ts';
import { sameState } from './state-equal.ts';
import { explainBatch, type BatchEntry } from './batch-order.ts';
import type { Violation } from '../model/verdict.ts';

export const DIFFERENTIAL = 'differential';

/** Distinct states the shadow follows at most; past that it stops rather than guess. */
const MAX_STATES = 64;

export class ShadowModel {
  /** The states of the model that explain every answer so far: one, unless calls ran at once. */
  private states: ReadonlyArray<ModelState>;
  private divergence: Violation | null = null;
  /** Why the shadow stopped following the store (null: it followed it to the end). */
  stoppedBecause: string | null = null;
  /** Store commands compared. */
  compared = 0;

  /** `renewal`: what the store's renewals do (capabilities.renewal); the model follows it. */
  constructor(
    readonly enabled: boolean,
    renewal: RenewalKind = 'extends',
  ) {
    this.states = [initialState(renewal)];
  }

  private get active(): boolean {
    return this.enabled && this.stoppedBecause === null && this.divergence === null;
  }

  /** The store executed `command` at store time `now` and answered `actual`; `index` is the history event of the call. */
  executed(command: Command, now: number, actual: unknown, process: string, index: number | null): void {
    if (!this.active) return;
    const explaining: ModelState[] = [];
    let expected: unknown;
    try {
      for (let i = 0; i < this.states.length; i++) {
        const stepped = step(this.states[i]!, command, now);
        if (i === 0) expected = stepped.outcome;
        if (!sameData(actual, stepped.outcome)) continue;
        if (!explaining.some((other) => sameState(other, stepped.state))) explaining.push(stepped.state);
      }
    } catch (error) {
      this.stoppedBecause = `the reference model rejected ${command.kind}: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    this.compared++;
    if (explaining.length > 0) {
      this.states = explaining;
      return;
    }
    const among = this.states.length === 1 ? '' : ` (in the first of the ${this.states.length} states it follows)`;
    this.divergence = {
      invariant: DIFFERENTIAL,
      message: `${command.kind} by ${process} at store time ${now}: the store answered ${JSON.stringify(actual)}, the reference model ${JSON.stringify(expected)}${among}; command ${JSON.stringify(command)}`,
      ...(index === null ? {} : { events: [index] }),
    };
  }

  /**
   * Calls the store ran at once (controlled interleaving), listed in the order they finished, at
   * store time `now` or at the store times each entry names. They were concurrent, so any order
   * of them is allowed (linearizability): the shadow follows every state that some order gives
   * with all the store's answers (sim/batch-order.ts), and reports a divergence only when none does.
   */
  executedBatch(entries: ReadonlyArray<BatchEntry>, now: number): void {
    if (!this.active) return;
    const order = explainBatch(this.states, entries, now);
    if (order.kind === 'undecided') {
      this.stoppedBecause = order.why;
      return;
    }
    if (order.kind === 'explained') {
      if (order.states.length > MAX_STATES) {
        this.stoppedBecause = `more than ${MAX_STATES} states of the reference model explain the store's answers so far`;
        return;
      }
      this.states = order.states;
      this.compared += entries.length;
      return;
    }
    const calls = entries.map((e) => `${e.command.kind} by ${e.process} answered ${JSON.stringify(e.actual)}`).join('; ');
    this.divergence = {
      invariant: DIFFERENTIAL,
      message: `${entries.length} calls ran at once ${times(entries, now)} and no order of them gives the store's answers: ${calls}`,
    };
  }

  /** The store may or may not have applied `command`: the shadow cannot follow it further. */
  lost(command: Command, why: string): void {
    if (this.active) this.stoppedBecause = `the outcome of ${command.kind} is unknown (${why})`;
  }

  stop(why: string): void {
    if (this.active) this.stoppedBecause = why;
  }

  /** The model's states at a store snapshot, to restore with it. */
  image(): ReadonlyArray<ModelState> {
    return this.states;
  }

  restore(image: ReadonlyArray<ModelState>): void {
    this.states = image;
  }

  violations(): ReadonlyArray<Violation> {
    return this.divergence === null ? [] : [this.divergence];
  }
}

/** When the calls of a batch ran: one store time, or the span store time passed through. */
function times(entries: ReadonlyArray<BatchEntry>, now: number): string {
  const all = entries.flatMap((e) => e.storeTimes ?? [now]);
  const first = Math.min(...all);
  const last = Math.max(...all);
  return first === last ? `at store time ${first}` : `between store times ${first} and ${last}`;
}
