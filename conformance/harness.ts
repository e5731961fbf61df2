// The conformance suite's harness: each test gets a fresh store on a virtual clock of its own; a
// test that needs a command the store does not declare is skipped at that command, naming it. A
// store whose fences are not integers runs with the reference model beside it (fenced-store.ts),
// and a test that reaches what its fences cannot be judged on is skipped as not judged.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { Store, TimeSource } from '../adapters/port.ts';
import { fencedStore, NotJudged } from './fenced-store.ts';

/** Opens a fresh, empty store that reads time from `time` (the suite's virtual clock). */
export type MakeStore = (time: TimeSource) => Promise<Store>;

export interface Harness {
  readonly clock: { now(): number; advance(ms: number): void };
  readonly store: Store;
  run<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  /**
   * The store's view (`Inspect`) for checks of what a test's commands left behind; null when the
   * store does not declare Inspect, so a test of commands the store has still runs without them.
   */
  inspected(): Promise<View | null>;
}

export type View = Extract<OutcomeOf<Extract<Command, { kind: 'Inspect' }>>, { view: unknown }>['view'];

export const STRIDE = 1_000_000_000;

/** A test reached a command kind the store does not declare (`capabilities.commands`). */
export class Lacks extends Error {
  constructor(what: string) {
    super(`the store lacks ${what}`);
  }
}

/**
 * Runs one test on a fresh store. A test that needs a command the store does not declare is
 * skipped at that command, with the command named: untested, neither passed nor failed. So is a
 * test that reaches what the store's fences cannot be judged on (fenced-store.ts).
 */
export function withStore(makeStore: MakeStore, body: (h: Harness) => Promise<void>): (context: { skip(note?: string): never }) => Promise<void> {
  return async (context) => {
    let t = 10_000;
    const clock = { now: () => t, advance: (ms: number) => void (t += ms) };
    const opened = await makeStore(clock);
    const declared = opened.capabilities?.commands;
    let skipped: string | null = null;
    try {
      const fenced = fencedStore(opened, clock);
      const store = fenced?.store ?? opened;
      const execute = <C extends Command>(command: C): Promise<OutcomeOf<C>> => (fenced === null ? store.execute(command) : fenced.run(command));
      const run = <C extends Command>(command: C): Promise<OutcomeOf<C>> => {
        if (declared !== undefined && !declared.includes(command.kind)) throw new Lacks(command.kind);
        return execute(command);
      };
      const inspected = async () => (declared === undefined || declared.includes('Inspect') ? (await execute({ kind: 'Inspect' })).view : null);
      await body({ clock, store, run, inspected });
      if (fenced !== null && fenced.notJudged.size > 0) skipped = `not judged (capabilities.fencing '${fenced.fencing}'): ${[...fenced.notJudged].join('; ')}`;
    } catch (error) {
      if (error instanceof Lacks) skipped = `untested: ${error.message}`;
      else if (error instanceof NotJudged) skipped = `not judged: ${error.message}`;
      else throw error;
    } finally {
      await opened.close();
    }
    if (skipped !== null) context.skip(skipped);
  };
}

export const acquire = (scope: string, holder: string, ttlMs = 1000, extra: Partial<Command> = {}) =>
  ({ kind: 'Acquire', scope, holder, ttlMs, ...extra }) as Extract<Command, { kind: 'Acquire' }>;

export const key = { tenant: 't', operation: 'deploy', subject: 'env-1', key: 'k-1' };

/** Declares one test of the suite for the store `makeStore` opens. */
export type It = (title: string, body: (h: Harness) => Promise<void>) => void;
/** How a section groups its tests: vitest's describe in the suite; a plain call where the tests are only collected. */
export type Group = (title: string, body: () => void) => void;

