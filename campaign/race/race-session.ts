// The stores a race runs on: one interleaved set (adapters/interleaving.ts) with a session per
// call of a case, on store time the race sets (a clock it moves itself), reset to a case's
// starting state before every schedule. A store that can snapshot and restore (the built-in
// stores) is reset by restoring the image taken after the case's setup; any other store is
// reopened on a fresh schema and the setup run again. A store whose fences are not integers runs
// behind the simulator's translation (sim/fence-ids.ts) and is set beside the model by its kind
// of fence (campaign/fences/model-fences.ts): the setup names its fences, the case's calls carry
// them, and the trace hash reads the store's own fences, not the translation's ids.

import { createHash } from 'node:crypto';
import type { BatchResult, Chooser, InterleavedStores, Interleaving } from '../../adapters/interleaving.ts';
import type { StoreImage } from '../../adapters/port.ts';
import { initialState, type RenewalKind } from '../../model/state.ts';
import { renewalOf } from '../../sim/renewal-kind.ts';
import type { Command } from '../../model/commands.ts';
import { fenceIdsFor, fencingOf, withFenceIdsInterleaved, type FenceIds, type FencingKind } from '../../sim/fence-ids.ts';
import { modelFences, type ModelFences } from '../fences/model-fences.ts';
import { withOwnFences } from '../fences/own-fences.ts';
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
  /** Each call's answer with the store's own fences (or its error), in the order the calls finished. */
  readonly answers: ReadonlyArray<{ readonly call: number; readonly value?: unknown; readonly error?: string }>;
  readonly traceHash: string;
}

export class RaceSession {
  private stores: InterleavedStores | null = null;
  private readonly clock = { ms: 0 };
  private image: StoreImage | null = null;
  /** The store's image when it was opened (empty). */
  private empty: StoreImage | null = null;
  private prepared: RaceCase | null = null;
  private ids: FenceIds | null = null;
  private fencing: FencingKind = 'integer';
  /** The fences after the prepared case's setup: how the case's calls and answers are set beside the model. */
  private setupFences: ModelFences = modelFences('integer', null);

  constructor(
    private readonly interleaving: Interleaving,
    private readonly sessions: ReadonlyArray<string>,
  ) {}

  private async open(): Promise<InterleavedStores> {
    if (this.stores !== null) return this.stores;
    const opened = await this.interleaving.open({ time: { now: () => this.clock.ms } }, this.sessions);
    this.fencing = fencingOf(opened.main);
    this.ids = fenceIdsFor(opened.main);
    this.stores = this.ids === null ? opened : withFenceIdsInterleaved(opened, this.ids);
    return this.stores;
  }

  /** What fences the store's leases (capabilities.fencing). */
  async fencingKind(): Promise<FencingKind> {
    await this.open();
    return this.fencing;
  }

  /** What the store's renewals do (capabilities.renewal): the cases' model follows it. */
  async renewalKind(): Promise<RenewalKind> {
    return renewalOf((await this.open()).main);
  }

  /** How the last schedule's calls and answers are set beside the model (after its case's setup). */
  get fences(): ModelFences {
    return this.setupFences;
  }

  /** The command kinds the store says it implements (undefined: every kind). */
  async declaredKinds(): Promise<ReadonlyArray<Command['kind']> | undefined> {
    return (await this.open()).main.capabilities?.commands;
  }

  /** Runs the case's setup serially on the main store, each answer checked against the reference model's. */
  private async setUp(raceCase: RaceCase): Promise<void> {
    const stores = await this.open();
    let state = initialState(raceCase.built.model.renewal);
    let fences = modelFences(this.fencing, this.ids);
    for (const { command, at } of raceCase.built.setup) {
      this.clock.ms = at;
      const answer = await stores.main.execute(fences.toStore(state, command));
      const reading = fences.read(state, command, at, answer)[0]!;
      if (!reading.agrees) {
        throw new RaceSetupError(`setting up '${raceCase.state.name}', ${command.kind} answered ${JSON.stringify(reading.actual)} where the reference model answers ${JSON.stringify(reading.expected)}: the store differs from the model on serial calls (testbed check finds such bugs)`);
      }
      state = reading.state;
      fences = reading.fences;
    }
    this.setupFences = fences;
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
    const calls = raceCase.commands.map((command, i) => ({ session: this.sessions[i]!, command: this.setupFences.toStore(raceCase.built.model, command), arrivedAt: raceCase.arrivals[i]! }));
    const end = Math.max(...raceCase.arrivals);
    this.clock.ms = end;
    const batch = await stores.runBatch(calls, recording, end);
    this.clock.ms = end;
    const view = await stores.main.execute({ kind: 'Inspect' });
    const own = (value: unknown): unknown => withOwnFences(value, this.ids, this.fencing);
    const answers = batch.settled.map(({ call, result }) => ({ call, ...(result.status === 'fulfilled' ? { value: own(result.value) } : { error: String(result.reason) }) }));
    const traceHash = createHash('sha256')
      .update(JSON.stringify({ kinds: raceCase.kinds, state: raceCase.state.name, commands: raceCase.commands, arrivals: raceCase.arrivals, schedule: batch.schedule, answers, view: own(view) }))
      .digest('hex');
    return { batch, view, stepSql, answers, traceHash };
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
