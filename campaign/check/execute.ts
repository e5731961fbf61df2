// One run of the check: the steps applied in lockstep to the store and to the reference model
// (model/step.ts), outcome for outcome. The run ends at the first divergence. A store that throws
// diverges (its answer is the error); a store that cannot be reached, answers with an unknown
// outcome or does not answer in time aborts the whole check, which could not decide. A store
// whose fences are not integers is set beside the model by its kind of fence
// (campaign/fences/model-fences.ts): each record holds the answers as compared, and says what
// the comparison could not judge. Each run starts with every node on its first process
// (processes.ts).

import type { StoreImage } from '../../adapters/port.ts';
import { sameData } from '../../model/data-equal.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { modelFences, type ModelFences, type Reading } from '../fences/model-fences.ts';
import { lifecycleStep } from './lifecycle-step.ts';
import { Processes } from './processes.ts';
import { upcomingExpiries } from './expiries.ts';
import { resolveCommand } from './resolve.ts';
import type { StoreSession } from './session.ts';
import { STEP_FORMAT, type StepFormat } from './step-format.ts';
import type { CheckStep } from './steps.ts';
import type { StepRecord } from './step-record.ts';

export type { StepRecord } from './step-record.ts';
import { Abort, answerOf, messageOf, within } from './store-call.ts';

export type RunOutcome =
  | { readonly kind: 'agreed'; readonly records: ReadonlyArray<StepRecord> }
  | { readonly kind: 'diverged'; readonly records: ReadonlyArray<StepRecord> }
  | { readonly kind: 'aborted'; readonly reason: string };

interface RunState {
  model: ModelState;
  fences: ModelFences;
  image: { readonly store: StoreImage; readonly model: ModelState; readonly fences: ModelFences } | null;
  readonly processes: Processes;
  readonly format: StepFormat;
}

/** Runs `steps`, drawn in `format` (default STEP_FORMAT), from an empty store. */
export async function runSteps(session: StoreSession, steps: ReadonlyArray<CheckStep>, timeoutMs: number, format: StepFormat = STEP_FORMAT): Promise<RunOutcome> {
  const records: StepRecord[] = [];
  try {
    await within(session.reset(), timeoutMs, 'resetting the store to empty');
    const run: RunState = { model: initialState(session.renewal), fences: modelFences(session.fencing, session.ids), image: null, processes: new Processes(), format };
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
  const sent = run.fences.toStore(run.model, command);
  // The model's answer does not depend on the caller: the store's must not either.
  const call = s.call === undefined ? undefined : run.processes.call(s.call);
  const store = session.store;
  const actual = await answerOf(() => (call === undefined ? store.execute(sent) : store.execute(sent, call)), timeoutMs, command.kind);
  let readings: ReadonlyArray<Reading>;
  try {
    readings = run.fences.read(run.model, command, now, actual);
  } catch (error) {
    throw new Abort(`the reference model failed on ${command.kind} (a defect of the testbed): ${messageOf(error)}`);
  }
  // A store without fences may have acted on its holder's lease instead: any reading that agrees will do.
  const reading = readings.find((r) => r.agrees) ?? readings[0]!;
  run.model = reading.state;
  run.fences = reading.fences;
  return {
    index,
    step: s,
    atMs: now,
    command,
    ...(call === undefined ? {} : { call }),
    expected: reading.expected,
    actual: reading.actual,
    ...(reading.asSent ? {} : { note: `read with the fence of ${command.kind}'s holder's lease: the store has no fences` }),
    ...(reading.notJudged.length === 0 ? {} : { notJudged: reading.notJudged }),
    ...(reading.reused === null ? {} : { reused: reading.reused }),
  };
}

async function snapshotStep(session: StoreSession, run: RunState, s: CheckStep, index: number, timeoutMs: number): Promise<StepRecord> {
  const atMs = session.clock.t;
  let image: StoreImage | undefined;
  const actual = await answerOf(async () => {
    image = await session.store.snapshot!();
    return { kind: 'SnapshotTaken' };
  }, timeoutMs, 'snapshot');
  if (image !== undefined) run.image = { store: image, model: run.model, fences: run.fences };
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
  run.fences = image.fences;
  return { index, step: s, atMs, expected: { kind: 'Restored' }, actual };
}

/** Outcomes compared as the data they are (model/data-equal.ts). */
export function sameOutcome(actual: unknown, expected: unknown): boolean {
  return sameData(actual, expected);
}

