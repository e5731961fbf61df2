// `failure.json` (docs/ARCHITECTURE.md "The CLI contract": every failure replays exactly): written on every
// failing run, it holds the plan that failed (shrunk when shrinking ran), so `testbed replay`
// re-executes the very same steps and must reproduce the very same trace hash. The plan is checked
// whole when the file is read (sim/plan-schema.ts): a damaged or edited plan is refused with the
// field that is wrong, never played as some other plan. A flaky failure, one whose plan did not
// show the violation when played again, keeps that second run beside the first (`rerun`).

import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.ts';
import { inProcessAdapter } from '../mutants/in-process.ts';
import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import type { InterleaveStrategy, Interleaving } from '../adapters/interleaving.ts';
import { POLICY_FLAGS, type ControllerPolicy } from '../model/controller-policy.ts';
import type { Plan } from '../sim/plan.ts';
import { planSchema } from '../sim/plan-schema.ts';
import type { RunResult } from '../sim/run-result.ts';
import { executePlan, type StoreChoice } from '../sim/run.ts';
import { presentFields } from './present-fields.ts';

export const FAILURE_FILE_VERSION = 1;

const violationSchema = z
  .object({
    invariant: z.string().min(1),
    message: z.string(),
    events: z.array(z.number().int().nonnegative()).optional(),
    scope: z.string().optional(),
  })
  .passthrough();

const historySchema = z.array(z.object({ index: z.number().int().nonnegative(), time: z.number(), process: z.string(), type: z.enum(['invoke', 'ok', 'fail', 'info', 'fault', 'truth']), f: z.string() }).passthrough());

export const failureFileSchema = z
  .object({
    version: z.literal(FAILURE_FILE_VERSION),
    scenario: z.string().min(1),
    seed: z.number().int(),
    adapter: z.string().min(1),
    faults: z.enum(['sim', 'real']),
    mutant: z.string().min(1).optional(),
    interleave: z.enum(['pct', 'random', 'free', 'random-functions', 'pct-functions']).optional(),
    policy: z.partialRecord(z.enum(POLICY_FLAGS as [keyof ControllerPolicy, ...Array<keyof ControllerPolicy>]), z.boolean()).optional(),
    plan: planSchema,
    violations: z.array(violationSchema),
    traceHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest'),
    replay: z.string().min(1),
    history: historySchema.optional(),
    rerun: z
      .object({ traceHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest'), valid: z.union([z.boolean(), z.literal('unknown')]), violations: z.array(violationSchema), history: historySchema })
      .strict()
      .optional(),
  })
  .strict();

export interface FailureFile {
  readonly version: typeof FAILURE_FILE_VERSION;
  readonly scenario: string;
  readonly seed: number;
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  /** The interleaving strategy of a run under `--interleave`, or `free` under `--concurrency free`. */
  readonly interleave?: InterleaveStrategy;
  /** The mutant that ran, when the adapter is `mutant:<name>`. */
  readonly mutant?: string;
  /** Policy flags that differed from the correct protocol. */
  readonly policy?: Partial<ControllerPolicy>;
  /** The plan that failed: shrunk when shrinking ran, else the full plan of (scenario, seed). */
  readonly plan: Plan;
  readonly violations: RunResult['violations'];
  /** Trace hash of the run of `plan`; a replay must give the same. */
  readonly traceHash: string;
  /** The one line that replays the seed from scratch. */
  readonly replay: string;
  /**
   * The history of the failing run of `plan`, as recorded: what a replay is compared with, and
   * all there is to go on when the store cannot replay exactly (its answers depend on more than
   * the commands and the store time).
   */
  readonly history?: RunResult['history'];
  /**
   * Present when the failure was flaky: the same plan, played again when the failure was found,
   * did not show the violation (campaign/flaky-failure.ts). Its run is kept beside the first, so
   * both histories can be compared; a replay need not show the violation either.
   */
  readonly rerun?: FailureRerun;
}

/** The run of a flaky failure's plan that did not show its violation. */
interface FailureRerun {
  readonly traceHash: string;
  readonly valid: RunResult['valid'];
  readonly violations: RunResult['violations'];
  readonly history: RunResult['history'];
}

/**
 * What a failure file keeps of the failing run. A run on a worker thread comes back without its
 * history (campaign/sweep-pool.ts), so the history is optional: the plan still replays the seed.
 */
export type FailedRun = Pick<RunResult, 'scenario' | 'seed' | 'adapter' | 'faults' | 'violations' | 'traceHash' | 'replay'> & { readonly history?: RunResult['history'] };

/** A failure file that cannot be read; the message is one line naming the file and the problem. */
export class FailureFileError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'FailureFileError';
  }
}

/** The failure record of a failing run of `plan`; with `rerun`, of a flaky one and the re-run that did not show it. */
export function failureOf(
  plan: Plan,
  result: FailedRun,
  extra: { readonly mutant?: string; readonly policy?: Partial<ControllerPolicy>; readonly interleave?: InterleaveStrategy; readonly rerun?: RunResult } = {},
): FailureFile {
  return {
    version: FAILURE_FILE_VERSION,
    scenario: result.scenario,
    seed: result.seed,
    adapter: result.adapter,
    faults: result.faults,
    ...presentFields({ mutant: extra.mutant, interleave: extra.interleave }),
    ...(extra.policy === undefined || Object.keys(extra.policy).length === 0 ? {} : { policy: extra.policy }),
    plan,
    violations: result.violations,
    traceHash: result.traceHash,
    replay: result.replay,
    ...presentFields({ history: result.history }),
    ...(extra.rerun === undefined ? {} : { rerun: { traceHash: extra.rerun.traceHash, valid: extra.rerun.valid, violations: extra.rerun.violations, history: extra.rerun.history } }),
  };
}

/** Writes atomically (atomic-write.ts), its directory made when missing. */
export async function writeFailureFile(path: string, failure: FailureFile): Promise<void> {
  const checked = failureFileSchema.safeParse(failure);
  if (!checked.success) throw new FailureFileError(path, `refusing to write an invalid failure file: ${firstIssue(checked.error)}`);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(failure, null, 2)}\n`);
}

export async function readFailureFile(path: string): Promise<FailureFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new FailureFileError(path, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FailureFileError(path, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = failureFileSchema.safeParse(json);
  if (!parsed.success) throw new FailureFileError(path, `not a failure file: ${firstIssue(parsed.error)}`);
  const failure = parsed.data as unknown as FailureFile;
  if (failure.plan.scenario !== failure.scenario || failure.plan.seed !== failure.seed) {
    throw new FailureFileError(path, `not a failure file: plan is for ${failure.plan.scenario} seed ${failure.plan.seed}, not ${failure.scenario} seed ${failure.seed}`);
  }
  return failure;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const where = issue.path.length === 0 ? '(root)' : issue.path.join('.');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${where}: ${issue.message}${more}`;
}

/** The store a failure ran on: the memory store, or a mutant of it. */
function storeOf(adapter: string): { readonly store: StoreChoice; readonly policy?: Partial<ControllerPolicy> } {
  const inProcess = inProcessAdapter(adapter);
  if (inProcess !== null) return { store: inProcess.store, ...(inProcess.policy === undefined ? {} : { policy: inProcess.policy }) };
  throw new Error(`replay of adapter '${adapter}' needs its store: pass it to replayFailure`);
}

/**
 * Re-executes the stored plan exactly, on the adapter it failed on (the memory store or a mutant
 * unless `store` is given) with the stored policy; the result carries the same trace hash.
 */
export async function replayFailure(failure: FailureFile, store?: StoreChoice, realFaults?: RealFaultDriver, interleave?: Interleaving): Promise<RunResult> {
  const resolved = store === undefined ? storeOf(failure.adapter) : { store };
  const policy = failure.policy ?? resolved.policy;
  return executePlan(failure.plan, {
    store: resolved.store,
    faults: failure.faults,
    replay: failure.replay,
    ...(realFaults === undefined ? {} : { realFaults }),
    ...(policy === undefined ? {} : { policy }),
    ...(interleave === undefined ? {} : { interleave }),
  });
}
