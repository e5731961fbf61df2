// The stores a race runs on: one interleaved set (adapters/interleaving.ts) with a session per
// call of a case, on store time the race sets (a clock it moves itself), reset to a case's
// starting state before every schedule. A store that can snapshot and restore (the built-in
// stores) is reset by restoring the image taken after the case's setup; any other store is
// reopened on a fresh schema and the setup run again.

import { createHash } from 'node:crypto';
import type { BatchResult, Chooser, InterleavedStores, Interleaving } from '../../adapters/interleaving.ts';
import type { StoreImage } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { sameData } from '../../model/data-equal.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { RaceCase } from './space.ts';

export class RaceSetupError extends Error {
  override readonly name = 'RaceSetupError';
}

export interface ScheduleRun {
  readonly batch: BatchResult;
  /** The store's Inspect answer after the batch. */
  readonly view: unknown;
  /** Per step of the schedule, the SQL text its session sent (null: a step inside a function or of the clock). */
  readonly stepSql: ReadonlyArray<string | null>;
  readonly traceHash: string;
}

export class RaceSession {
  private stores: InterleavedStores | null = null;
  private readonly clock = { ms: 0 };
  private image: StoreImage | null = null;
  /** The store's image when it was opened (empty). */
  private empty: StoreImage | null = null;
  private prepared: RaceCase | null = null;

  constructor(
    private readonly interleaving: Interleaving,
    private readonly sessions: ReadonlyArray<string>,
  ) {}

  private async open(): Promise<InterleavedStores> {
    if (this.stores === null) this.stores = await this.interleaving.open({ time: { now: () => this.clock.ms } }, this.sessions);
    return this.stores;
  }

  /** The command kinds the store says it implements (undefined: every kind). */
  async declaredKinds(): Promise<ReadonlyArray<Command['kind']> | undefined> {
    return (await this.open()).main.capabilities?.commands;
  }

  /** Runs the case's setup serially on the main store, each answer checked against the reference model's. */
  private async setUp(raceCase: RaceCase): Promise<void> {
    const stores = await this.open();
    let state = initialState();
    for (const { command, at } of raceCase.built.setup) {
      this.clock.ms = at;
      const answer = await stores.main.execute(command);
      const serial = step(state, command, at);
      state = serial.state;
      if (!sameData(answer, serial.outcome)) {
        throw new RaceSetupError(`setting up '${raceCase.state.name}', ${command.kind} answered ${JSON.stringify(answer)} where the reference model answers ${JSON.stringify(serial.outcome)}: the store differs from the model on serial calls (testbed check finds such bugs)`);
      }
    }
  }

  /** Puts the store in the case's starting state. */
  private async reset(raceCase: RaceCase): Promise<void> {
    const stores = await this.open();
    const { main } = stores;
    if (this.prepared === raceCase && this.image !== null && main.restore !== undefined) {
      await main.restore(this.image);
      return;
    }
    if (main.snapshot !== undefined && main.restore !== undefined) {
      this.empty ??= await main.snapshot();
      await main.restore(this.empty);
      await this.setUp(raceCase);
      this.image = await main.snapshot();
      this.prepared = raceCase;
      // Every schedule, the first too, starts from the restored image, as a replay's does.
      await main.restore(this.image);
      return;
    }
    await this.close();
    await this.setUp(raceCase);
  }

  /** One schedule of the case, its choices made by `choose`. */
  async run(raceCase: RaceCase, choose: Chooser): Promise<ScheduleRun> {
    await this.reset(raceCase);
    const stores = this.stores!;
    const stepSql: Array<string | null> = [];
    const recording: Chooser = (names, steps) => {
      const i = choose(names, steps);
      stepSql.push(steps?.[i] ?? null);
      return i;
    };
    const calls = raceCase.commands.map((command, i) => ({ session: this.sessions[i]!, command, arrivedAt: raceCase.arrivals[i]! }));
    const end = Math.max(...raceCase.arrivals);
    this.clock.ms = end;
    const batch = await stores.runBatch(calls, recording, end);
    this.clock.ms = end;
    const view = await stores.main.execute({ kind: 'Inspect' });
    const answers = batch.settled.map(({ call, result }) => ({ call, ...(result.status === 'fulfilled' ? { value: result.value } : { error: String(result.reason) }) }));
    const traceHash = createHash('sha256')
      .update(JSON.stringify({ kinds: raceCase.kinds, state: raceCase.state.name, commands: raceCase.commands, arrivals: raceCase.arrivals, schedule: batch.schedule, answers, view }))
      .digest('hex');
    return { batch, view, stepSql, traceHash };
  }

  async close(): Promise<void> {
    const stores = this.stores;
    this.stores = null;
    this.image = null;
    this.empty = null;
    this.prepared = null;
    await stores?.close();
  }
}
