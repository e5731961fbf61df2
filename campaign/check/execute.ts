// One run of the check: the steps applied in lockstep to the store and to the reference model
// (model/step.ts), outcome for outcome. The run ends at the first divergence. A store that throws
// diverges (its answer is the error); a store that cannot be reached, answers with an unknown
// outcome or does not answer in time aborts the whole check, which could not decide. Each run
// starts with every node on its first process (processes.ts).

import type { CallContext, LifecycleEvent, StoreImage } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { sameData } from '../../model/data-equal.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { upcomingExpiries } from './expiries.ts';
import { step } from '../../model/step.ts';
import { lifecycleStep } from './lifecycle-step.ts';
import { Processes } from './processes.ts';
import { resolveCommand } from './resolve.ts';
import type { StoreSession } from './session.ts';
import { STEP_FORMAT, type StepFormat } from './step-format.ts';
import type { CheckStep } from './steps.ts';
import { Abort, answerOf, messageOf, within } from './store-call.ts';

export interface StepRecord {
  /** 1-based position in the run. */
  readonly index: number;
  readonly step: CheckStep;
  /** Store time when the step ran (after it, for clock steps). */
  readonly atMs: number;
  /** The command as sent, placeholders filled. */
  readonly command?: Command;
  /** The process that sent it (absent: no call context). */
  readonly call?: CallContext;
  /** What a lifecycle step told the store, or would have told a store with `lifecycle`. */
  readonly events?: ReadonlyArray<LifecycleEvent>;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly note?: string;
}

export type RunOutcome =
  | { readonly kind: 'agreed'; readonly records: ReadonlyArray<StepRecord> }
  | { readonly kind: 'diverged'; readonly records: ReadonlyArray<StepRecord> }
  | { readonly kind: 'aborted'; readonly reason: string };

interface RunState {
  model: ModelState;
  image: { readonly store: StoreImage; readonly model: ModelState } | null;
  readonly processes: Processes;
  readonly format: StepFormat;
}

/** Runs `steps`, drawn in `format` (default STEP_FORMAT), from an empty store. */
export async function runSteps(session: StoreSession, steps: ReadonlyArray<CheckStep>, timeoutMs: number, format: StepFormat = STEP_FORMAT): Promise<RunOutcome> {
  const records: StepRecord[] = [];
  try {
    await within(session.reset(), timeoutMs, 'resetting the store to empty');
    const run: RunState = { model: initialState(), image: null, processes: new Processes(), format };
    for (const [i, s] of steps.entries()) {
      const record = await applyStep(session, run, s, i + 1, timeoutMs);
      records.push(record);
      if ('actual' in record && !sameOutcome(record.actual, record.expected)) return { kind: 'diverged', records };
    }
    return { kind: 'agreed', records };
  } catch (error) {
    if (error instanceof Abort) return { kind: 'aborted', reason: error.message };
    throw error;
  }
}

async function applyStep(session: StoreSession, run: RunState, s: CheckStep, index: number, timeoutMs: number): Promise<StepRecord> {
  const clock = session.clock;
  switch (s.kind) {
    case 'advance':
      clock.t += s.ms;
      return { index, step: s, atMs: clock.t };
    case 'to-expiry': {
      const expiries = upcomingExpiries(run.model, clock.t);
      if (expiries.length === 0) return { index, step: s, atMs: clock.t, note: 'nothing expires: clock unchanged' };
      clock.t = Math.max(clock.t, expiries[s.pick % expiries.length]! + s.offsetMs);
      return { index, step: s, atMs: clock.t };
    }
    case 'skew':
      session.skew.ms = s.ms;
      return { index, step: s, atMs: clock.t };
    case 'snapshot':
      return snapshotStep(session, run, s, index, timeoutMs);
    case 'restore':
      return restoreStep(session, run, s, index, timeoutMs);
    case 'lifecycle':
      return lifecycleStep(session, run.processes, s, index, timeoutMs);
    case 'command':
      return commandStep(session, run, s, index, timeoutMs);
  }
}

async function commandStep(
  session: StoreSession,
  run: RunState,
  s: Extract<CheckStep, { kind: 'command' }>,
  index: number,
  timeoutMs: number,
): Promise<StepRecord> {
  const now = session.clock.t;
  const command = resolveCommand(run.model, s.command, now, { liveAttempts: run.format !== 1 });
  let expected;
  try {
    expected = step(run.model, command, now);
  } catch (error) {
    throw new Abort(`the reference model failed on ${command.kind} (a defect of the testbed): ${messageOf(error)}`);
  }
  run.model = expected.state;
  // The model's answer does not depend on the caller: the store's must not either.
  const call = s.call === undefined ? undefined : run.processes.call(s.call);
  const store = session.store;
  const actual = await answerOf(() => (call === undefined ? store.execute(command) : store.execute(command, call)), timeoutMs, command.kind);
  return { index, step: s, atMs: now, command, ...(call === undefined ? {} : { call }), expected: expected.outcome, actual };
}

async function snapshotStep(session: StoreSession, run: RunState, s: CheckStep, index: number, timeoutMs: number): Promise<StepRecord> {
  const atMs = session.clock.t;
  let image: StoreImage | undefined;
  const actual = await answerOf(async () => {
    image = await session.store.snapshot!();
    return { kind: 'SnapshotTaken' };
  }, timeoutMs, 'snapshot');
  if (image !== undefined) run.image = { store: image, model: run.model };
  return { index, step: s, atMs, expected: { kind: 'SnapshotTaken' }, actual };
}

async function restoreStep(session: StoreSession, run: RunState, s: CheckStep, index: number, timeoutMs: number): Promise<StepRecord> {
  const atMs = session.clock.t;
  const image = run.image;
  if (image === null) return { index, step: s, atMs, note: 'no snapshot yet: nothing restored' };
  const actual = await answerOf(async () => {
    await session.store.restore!(image.store);
    return { kind: 'Restored' };
  }, timeoutMs, 'restore');
  run.model = image.model;
  return { index, step: s, atMs, expected: { kind: 'Restored' }, actual };
}

/** Outcomes compared as the data they are (model/data-equal.ts). */
export function sameOutcome(actual: unknown, expected: unknown): boolean {
  return sameData(actual, expected);
}
