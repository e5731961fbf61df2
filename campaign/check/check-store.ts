// The command-level model-based check of a store: random step sequences (steps.ts) run against
// the store and the reference model in lockstep (execute.ts) until the first divergence, which
// fast-check then shrinks to the shortest sequence that still diverges. The same seed draws the
// same sequences, and a seed with the counterexample's path replays exactly that counterexample.
// A path names the step format it was drawn in (step-format.ts): `v2:` and fast-check's path; a path
// without a prefix is format 1's, from before call contexts, lifecycle steps and live attempts.

import fc from 'fast-check';
import type { StoreFactory } from '../../adapters/port.ts';
import type { CommandKind } from '../../model/commands.ts';
import { runSteps, type RunOutcome, type StepRecord } from './execute.ts';
import { StoreSession } from './session.ts';
import { checkPath, formatOfPath } from './step-format.ts';
import { stepsArbitrary, type CheckStep } from './steps.ts';

export interface CheckOptions {
  readonly factory: StoreFactory;
  /** Random sequences to try (default 5000). */
  readonly runs?: number;
  /** fast-check seed (a 32-bit integer); drawn at random and reported when absent. */
  readonly seed?: number;
  /** A counterexample's path, from an earlier result: replays it (with its seed). See step-format.ts. */
  readonly path?: string;
  /** The command kinds to send (default: those the store declares in `capabilities.commands`, else all). */
  readonly kinds?: ReadonlyArray<CommandKind>;
  /** Longest sequence of steps (default 50). */
  readonly maxSteps?: number;
  /** Longest wait for one store call before the check gives up as undecided (default 10 s). */
  readonly callTimeoutMs?: number;
  /** Build a new store for every sequence even when it can restore an empty image. */
  readonly freshStore?: boolean;
  /** Called after each sequence, with how many have run (for progress). */
  readonly onRun?: (runs: number) => void;
}

export type CheckResult =
  | { readonly verdict: 'pass'; readonly seed: number; readonly runs: number; readonly elapsedMs: number }
  | {
      readonly verdict: 'fail';
      readonly seed: number;
      /** Replays the counterexample with `seed`: fast-check's path after the step format's prefix (`v2:`). */
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
    }
  | { readonly verdict: 'undecided'; readonly seed: number; readonly runs: number; readonly reason: string; readonly elapsedMs: number };

/** Why the model cannot judge the store outcome by outcome; null when it can. */
function unjudgeable(store: StoreSession['store']): string | null {
  const capabilities = store.capabilities;
  const cannot = 'an outcome-by-outcome comparison with the reference model cannot judge it';
  if (capabilities?.referenceSemantics === false) return `the store declares semantics of its own (capabilities.referenceSemantics: false): ${cannot}`;
  if (capabilities?.fencing !== undefined && capabilities.fencing !== 'integer') return `the store's fences are not integer tokens (capabilities.fencing: '${capabilities.fencing}'): ${cannot}`;
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
  const steps = stepsArbitrary({ snapshots: session.durable, maxSteps: options.maxSteps ?? 50, format, ...(kinds === undefined ? {} : { kinds }) });
  let aborted: string | null = null;
  let firstFailureMs: number | null = null;
  let runs = 0;
  const property = fc.asyncProperty(steps, async (sequence) => {
    if (aborted !== null) return true;
    const outcome = await runSteps(session, sequence, timeoutMs, format);
    runs += 1;
    options.onRun?.(runs);
    if (outcome.kind === 'aborted') aborted = outcome.reason;
    if (outcome.kind !== 'diverged') return true;
    firstFailureMs ??= performance.now() - started;
    return false;
  });
  try {
    const details = await fc.check(property, {
      numRuns: options.runs ?? 5000,
      seed,
      ...(fcPath === undefined ? {} : { path: fcPath }),
    });
    const elapsedMs = performance.now() - started;
    if (aborted !== null) return { verdict: 'undecided', seed, runs, reason: aborted, elapsedMs };
    if (!details.failed || details.counterexample === null) return { verdict: 'pass', seed, runs, elapsedMs };
    const sequence = details.counterexample[0];
    const replayed = await runSteps(session, sequence, timeoutMs, format);
    return failure(seed, checkPath(format, details.counterexamplePath ?? ''), details, sequence, replayed, { runs, firstFailureMs: firstFailureMs ?? elapsedMs, elapsedMs });
  } finally {
    await session.close();
  }
}

function failure(
  seed: number,
  path: string,
  details: fc.RunDetails<[ReadonlyArray<CheckStep>]>,
  sequence: ReadonlyArray<CheckStep>,
  replayed: RunOutcome,
  times: { runs: number; firstFailureMs: number; elapsedMs: number },
): CheckResult {
  if (replayed.kind === 'aborted') return { verdict: 'undecided', seed, runs: times.runs, reason: replayed.reason, elapsedMs: times.elapsedMs };
  if (replayed.kind === 'agreed') {
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
    steps: replayed.records,
    sequence,
  };
}
