// The reference model as a shadow store (model/step.ts): every command the store executes during
// a run is also stepped on the model, at the same store time, and the two outcomes must agree.
// The first disagreement is a `differential` violation naming the command and both outcomes.
// The shadow follows the store's durable state through simulated snapshots and restores; where
// it cannot know what the store did (an unknown outcome, durable state replaced by a real fault),
// it stops and says why, so that nothing after that point is judged against it.

import type { Command } from '../model/commands.ts';
import { sameData } from '../model/data-equal.ts';
import { initialState, type ModelState } from '../model/state.ts';
import { step } from '../model/step.ts';
import { explainBatch, type BatchEntry } from './batch-order.ts';
import type { Violation } from '../model/verdict.ts';

export const DIFFERENTIAL = 'differential';

export class ShadowModel {
  private state: ModelState = initialState();
  private divergence: Violation | null = null;
  /** Why the shadow stopped following the store (null: it followed it to the end). */
  stoppedBecause: string | null = null;
  /** Store commands compared. */
  compared = 0;

  constructor(readonly enabled: boolean) {}

  private get active(): boolean {
    return this.enabled && this.stoppedBecause === null && this.divergence === null;
  }

  /** The store executed `command` at store time `now` and answered `actual`; `index` is the history event of the call. */
  executed(command: Command, now: number, actual: unknown, process: string, index: number | null): void {
    if (!this.active) return;
    let expected;
    try {
      expected = step(this.state, command, now);
    } catch (error) {
      this.stoppedBecause = `the reference model rejected ${command.kind}: ${error instanceof Error ? error.message : String(error)}`;
      return;
    }
    this.state = expected.state;
    this.compared++;
    if (sameData(actual, expected.outcome)) return;
    this.divergence = {
      invariant: DIFFERENTIAL,
      message: `${command.kind} by ${process} at store time ${now}: the store answered ${JSON.stringify(actual)}, the reference model ${JSON.stringify(expected.outcome)}; command ${JSON.stringify(command)}`,
      ...(index === null ? {} : { events: [index] }),
    };
  }

  /**
   * Calls the store ran at once (controlled interleaving), all at store time `now`, listed in the
   * order they finished. They were concurrent, so any order of them is allowed (linearizability):
   * the shadow takes the first order whose outcomes are all the store's (sim/batch-order.ts) and
   * reports a divergence only when no order explains them.
   */
  executedBatch(entries: ReadonlyArray<BatchEntry>, now: number): void {
    if (!this.active) return;
    const order = explainBatch(this.state, entries, now);
    if (order.kind === 'undecided') {
      this.stoppedBecause = order.why;
      return;
    }
    if (order.kind === 'explained') {
      this.state = order.state;
      this.compared += entries.length;
      return;
    }
    const calls = entries.map((e) => `${e.command.kind} by ${e.process} answered ${JSON.stringify(e.actual)}`).join('; ');
    this.divergence = {
      invariant: DIFFERENTIAL,
      message: `${entries.length} calls ran at once at store time ${now} and no order of them gives the store's answers: ${calls}`,
    };
  }

  /** The store may or may not have applied `command`: the shadow cannot follow it further. */
  lost(command: Command, why: string): void {
    if (this.active) this.stoppedBecause = `the outcome of ${command.kind} is unknown (${why})`;
  }

  stop(why: string): void {
    if (this.active) this.stoppedBecause = why;
  }

  /** The model's state at a store snapshot, to restore with it. */
  image(): ModelState {
    return this.state;
  }

  restore(image: ModelState): void {
    this.state = image;
  }

  violations(): ReadonlyArray<Violation> {
    return this.divergence === null ? [] : [this.divergence];
  }
}
