// The command-level model-based check of a store: random step sequences (steps.ts) run against
// the store and the reference model in lockstep (execute.ts) until the first divergence, which
// fast-check then shrinks to the shortest sequence that still diverges. The same seed draws the
// same sequences, and a seed with the counterexample's path replays exactly that counterexample.
// A counterexample that agrees with the model when run again (a store whose answers depend on more
// than the commands) is still a divergence found: it is reported flaky, with both runs.
// A store whose fences are not integers is checked on what its fences allow
// (campaign/fences/model-fences.ts), and the result lists what was not judged.
// A path names the step format it was drawn in (step-format.ts): `v3:` and fast-check's path; `v2:`
// is format 2's, from before each field was drawn across its domain; a path without a prefix is
// format 1's, from before call contexts, lifecycle steps and live attempts. A profile
// (profiles.ts) sets the world and the length of sequences: a path replays in the profile that
// printed it.

import fc from 'fast-check';
import type { StoreFactory } from '../../adapters/port.ts';
import type { CommandKind } from '../../model/commands.ts';
import type { FencingKind } from '../../sim/fence-ids.ts';
import { brokenRule, type BrokenRule } from './broken-rule.ts';
import { runSteps, type RunOutcome, type StepRecord } from './execute.ts';
import { StoreSession } from './session.ts';
import { checkPath, formatOfPath, type StepFormat } from './step-format.ts';
import { stepsArbitrary, type CheckStep } from './steps.ts';
import { PROFILES, type CheckProfile } from './profiles.ts';

export interface CheckOptions {
  readonly factory: StoreFactory;
  /** The world and length of sequences (default 'default': a small world, 50 steps); sets the defaults of `runs` and `maxSteps`. */
  readonly profile?: CheckProfile;
  /** Random sequences to try (default the profile's: 5000, or 500 for 'long'). */
  readonly runs?: number;
  /** fast-check seed (a 32-bit integer); drawn at random and reported when absent. */
  readonly seed?: number;
  /** A counterexample's path, from an earlier result: replays it (with its seed). See step-format.ts. */
  readonly path?: string;
  /** The command kinds to send (default: those the store declares in `capabilities.commands`, else all). */
  readonly kinds?: ReadonlyArray<CommandKind>;
  /** Longest sequence of steps (default the profile's: 50, or 500 for 'long'). */
  readonly maxSteps?: number;
  /** Longest wait for one store call before the check gives up as undecided (default 10 s). */
  readonly callTimeoutMs?: number;
  /** Build a new store for every sequence even when it can restore an empty image. */
  readonly freshStore?: boolean;
  /** Called after each sequence, with how many have run (for progress). */
  readonly onRun?: (runs: number) => void;
}

/** What fenced the store's leases, and what the comparison could not judge because of it (none for integer fences). */
export interface FencesJudged {
  readonly fencing: FencingKind;
  readonly notJudged: ReadonlyArray<string>;
}

export type CheckResult =
  | ({ readonly verdict: 'pass'; readonly seed: number; readonly runs: number; readonly elapsedMs: number } & FencesJudged)
  | ({
      readonly verdict: 'fail';
      readonly seed: number;
      /** Replays the counterexample with `seed` (and the profile): fast-check's path after the step format's prefix (`v3:`). */
      readonly path: string;
      readonly runs: number;
      readonly shrinks: number;
      /** Time from the start to the first divergent sequence, before shrinking. */
      readonly firstFailureMs: number;
      readonly elapsedMs: number;
      /** The shrunk counterexample, step by step, with both outcomes of the divergent step. */
      readonly steps: ReadonlyArray<StepRecord>;
      /** The same counterexample as data, for a test to re-run. */
      readonly sequence: ReadonlyArray<CheckStep>;
      /**
       * Present when the counterexample agreed with the model when run again (the store does not
       * answer alike for the same commands): `steps` are then those of the run that diverged, and
       * this is the run again, step by step. Still a divergence found.
       */
      readonly flaky?: { readonly rerun: ReadonlyArray<StepRecord> };
      /**
       * Present when the divergence showed on a store restored to empty between sequences and not
       * on a fresh one: the store keeps state its restore does not reset. `reproduced`: the check,
       * run again on a fresh store per sequence, found the counterexample reported (it replays
       * alone); false: it found none, and this one diverges only after earlier sequences.
       */
      readonly restoreLeaks?: { readonly reproduced: boolean };
      /** The rule its last step breaks. */
      readonly broken: BrokenRule;
    } & FencesJudged)
  | { readonly verdict: 'undecided'; readonly seed: number; readonly runs: number; readonly reason: string; readonly elapsedMs: number };

/** What a store with opaque fences is never judged on, whatever the sequences (the readings say the rest). */
function standingNotJudged(fencing: FencingKind): string[] {
  return fencing === 'opaque' ? ["the order of the store's fences (compared by equality only)"] : [];
}

/** Why the model cannot judge the store outcome by outcome; null when it can. */
function unjudgeable(store: StoreSession['store']): string | null {
  const capabilities = store.capabilities;
  const cannot = 'an outcome-by-outcome comparison with the reference model cannot judge it';
  if (capabilities?.referenceSemantics === false) return `the store declares semantics of its own (capabilities.referenceSemantics: false): ${cannot}`;
  if (capabilities?.leaseBound === 'session') return `the store's leases live as long as their sessions (capabilities.leaseBound: 'session'), not their TTL: ${cannot}`;
  return null;
}

export async function checkStore(options: CheckOptions): Promise<CheckResult> {
  const started = performance.now();
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const { format, fcPath } = formatOfPath(options.path);
  const session = await StoreSession.open(options.factory, options.freshStore === undefined ? {} : { freshStore: options.freshStore });
  const reason = unjudgeable(session.store);
  if (reason !== null) {
    await session.close();
    return { verdict: 'undecided', seed, runs: 0, reason, elapsedMs: performance.now() - started };
  }
  const kinds = options.kinds ?? session.store.capabilities?.commands;
  const timeoutMs = options.callTimeoutMs ?? 10_000;
  const profile = PROFILES[options.profile ?? 'default'];
  const steps = stepsArbitrary({ snapshots: session.durable, maxSteps: options.maxSteps ?? profile.maxSteps, format, world: profile.world, ...(kinds === undefined ? {} : { kinds }) });
  let aborted: string | null = null;
  let firstFailureMs: number | null = null;
  // The last sequence that diverged, which fast-check reports as the counterexample, with its run:
  // the record of the divergence should the store not diverge when it is run again. Set by the
  // property below; the cast keeps TypeScript from narrowing it to null for good.
  let lastDivergence = null as { readonly sequence: ReadonlyArray<CheckStep>; readonly records: ReadonlyArray<StepRecord> } | null;
  let runs = 0;
  const notJudged = new Set(standingNotJudged(session.fencing));
  const property = fc.asyncProperty(steps, async (sequence) => {
    if (aborted !== null) return true;
    const outcome = await runSteps(session, sequence, timeoutMs, format);
    runs += 1;
    options.onRun?.(runs);
    if (outcome.kind === 'aborted') aborted = outcome.reason;
    else for (const record of outcome.records) for (const what of record.notJudged ?? []) notJudged.add(what);
    if (outcome.kind !== 'diverged') return true;
    firstFailureMs ??= performance.now() - started;
    lastDivergence = { sequence, records: outcome.records };
    return false;
  });
  try {
    const details = await fc.check(property, {
      numRuns: options.runs ?? profile.runs,
      seed,
      ...(fcPath === undefined ? {} : { path: fcPath }),
    });
    const elapsedMs = performance.now() - started;
    if (aborted !== null) return { verdict: 'undecided', seed, runs, reason: aborted, elapsedMs };
    const fences: FencesJudged = { fencing: session.fencing, notJudged: [...notJudged] };
    if (!details.failed || details.counterexample === null) return { verdict: 'pass', seed, runs, elapsedMs, ...fences };
    const sequence = details.counterexample[0];
    const replayed = await runSteps(session, sequence, timeoutMs, format);
    // Diverging again on the restored store and agreeing on a fresh one is state the restore left
    // (a store that answers otherwise from run to run is flaky instead, below).
    const leaks = replayed.kind === 'diverged' && session.durable && options.freshStore !== true && (await agreesAlone(options.factory, sequence, timeoutMs, format));
    if (leaks) {
      // A counterexample that replays alone comes from fresh stores, if any does.
      const { onRun: _progress, ...quiet } = options;
      const fresh = await checkStore({ ...quiet, seed, freshStore: true });
      const both = { runs: runs + fresh.runs, elapsedMs: performance.now() - started };
      if (fresh.verdict === 'fail') return { ...fresh, ...both, firstFailureMs: firstFailureMs ?? fresh.firstFailureMs, restoreLeaks: { reproduced: true } };
    }
    const first = lastDivergence !== null && lastDivergence.sequence === sequence ? lastDivergence.records : null;
    const found = failure(seed, checkPath(format, details.counterexamplePath ?? ''), details, sequence, replayed, first, { runs, firstFailureMs: firstFailureMs ?? elapsedMs, elapsedMs }, fences);
    return leaks && found.verdict === 'fail' ? { ...found, restoreLeaks: { reproduced: false } } : found;
  } finally {
    await session.close();
  }
}

/** Whether `sequence` agrees with the model on a store of its own, built by `factory` (as a replay in a new process runs it). */
async function agreesAlone(factory: StoreFactory, sequence: ReadonlyArray<CheckStep>, timeoutMs: number, format: StepFormat): Promise<boolean> {
  const alone = await StoreSession.open(factory, { freshStore: true });
  try {
    return (await runSteps(alone, sequence, timeoutMs, format)).kind === 'agreed';
  } finally {
    await alone.close();
  }
}

/**
 * The check's verdict on fast-check's counterexample, run once more for its records (`replayed`).
 * One that agrees with the model this time is a flaky divergence, reported with the records of the
 * run that diverged (`first`); without them (fast-check's counterexample was not that run) the
 * check cannot say what diverged, and is undecided.
 */
function failure(
  seed: number,
  path: string,
  details: fc.RunDetails<[ReadonlyArray<CheckStep>]>,
  sequence: ReadonlyArray<CheckStep>,
  replayed: RunOutcome,
  first: ReadonlyArray<StepRecord> | null,
  times: { runs: number; firstFailureMs: number; elapsedMs: number },
  fences: FencesJudged,
): CheckResult {
  if (replayed.kind === 'aborted') return { verdict: 'undecided', seed, runs: times.runs, reason: replayed.reason, elapsedMs: times.elapsedMs };
  const steps = replayed.kind === 'diverged' ? replayed.records : first;
  if (steps === null) {
    const reason = 'the shrunk counterexample did not diverge when run again: the store is not deterministic for the same commands';
    return { verdict: 'undecided', seed, runs: times.runs, reason, elapsedMs: times.elapsedMs };
  }
  return {
    verdict: 'fail',
    seed,
    path,
    runs: times.runs,
    shrinks: details.numShrinks,
    firstFailureMs: times.firstFailureMs,
    elapsedMs: times.elapsedMs,
    steps,
    sequence,
    ...(replayed.kind === 'agreed' ? { flaky: { rerun: replayed.records } } : {}),
    broken: brokenRule(steps[steps.length - 1]!),
    ...fences,
  };
}
