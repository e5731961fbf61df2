// `testbed check`: the command-level model-based check of a store (campaign/check/). Random
// command sequences with clock steps, caller skew, snapshot and restore run against the store and
// the reference model in lockstep; the first divergence is shrunk, printed as numbered steps with
// both outcomes, written to out/failures/, and given a replay line (seed and path). A divergence
// that does not come back when run again is flaky: reported, with both runs in its file, exit 1.
// `--profile long` draws over tens of scopes, holders and keys and runs hundreds of steps a
// sequence (campaign/check/profiles.ts); its replay line names the profile, which the path needs.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { findMutant } from '../../mutants/index.ts';
import { checkStore, formatCounterexample, isCheckPath, type CheckResult } from '../../campaign/check/index.ts';
import { formatOfPath } from '../../campaign/check/step-format.ts';
import { CHECK_PROFILES, isCheckProfile, PROFILES, type CheckProfile } from '../../campaign/check/profiles.ts';
import { resolveAdapter } from '../../backends/index.ts';
import { EXIT, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { startProgress } from '../progress.ts';
import { parseSeed } from '../seeds.ts';
import { shellWord } from '../../sim/run.ts';
import type { CheckCommandOptions } from './check-flags.ts';

const RUNS_MAX = 10_000_000;
const FAST_CHECK_SEED_MAX = 2 ** 31 - 1;

function parseCount(text: string, what: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) throw new UsageError(`bad ${what} "${text}": expected an integer from 1 to ${max}`);
  return Number(text);
}

function parsePath(text: string | undefined, seed: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (seed === undefined) throw new UsageError('--path replays a counterexample and needs the --seed it was found with');
  if (!isCheckPath(text)) throw new UsageError(`bad path "${text}": expected numbers separated by colons (after v3: for a path of the current check), as printed on a replay line`);
  return text;
}

function parseProfile(text: string | undefined): CheckProfile {
  if (text === undefined) return 'default';
  if (!isCheckProfile(text)) throw new UsageError(`unknown profile "${text}": expected one of ${CHECK_PROFILES.join(', ')}`);
  return text;
}

export async function checkCommand(options: CheckCommandOptions): Promise<void> {
  const profile = parseProfile(options.profile);
  const runs = options.runs === undefined ? PROFILES[profile].runs : parseCount(options.runs, '--runs', RUNS_MAX);
  const maxSteps = options.maxSteps === undefined ? PROFILES[profile].maxSteps : parseCount(options.maxSteps, '--max-steps', 1_000);
  const seed = options.seed === undefined ? undefined : parseSeed(options.seed);
  if (seed !== undefined && seed > FAST_CHECK_SEED_MAX) throw new UsageError(`bad seed "${options.seed}": the check's seed is at most ${FAST_CHECK_SEED_MAX}`);
  const replayPath = parsePath(options.path, options.seed);
  // Paths printed before format 3 were drawn in the default world only: another profile would replay them elsewhere.
  if (replayPath !== undefined && profile !== 'default' && formatOfPath(replayPath).format < 3) {
    throw new UsageError(`--path ${replayPath} was printed by an earlier check, whose only world is the default profile: leave out --profile ${profile}`);
  }
  const adapter = await resolveAdapter(options.adapter);
  const progress = startProgress(runs, 'check', !options.json, 'sequences');
  let result: CheckResult;
  try {
    result = await checkStore({
      factory: adapter.store.factory,
      profile,
      runs,
      maxSteps,
      ...(seed === undefined ? {} : { seed }),
      ...(replayPath === undefined ? {} : { path: replayPath }),
      onRun: () => progress.tick(),
    });
  } finally {
    progress.stop();
    await adapter.close();
  }
  const replay = replayLine(options.adapter, result.seed, result.verdict === 'fail' ? result.path : undefined, profile, maxSteps);
  const file = result.verdict === 'fail' ? await writeCheckFailure({ adapter: options.adapter, profile, maxSteps }, result, replay) : null;
  if (options.json) printJson({ adapter: options.adapter, profile, ...summary(result), replay, failureFile: file });
  else process.stdout.write(`${render(options.adapter, result, replay, file)}\n`);
  process.exitCode = result.verdict === 'pass' ? EXIT.ok : result.verdict === 'fail' ? EXIT.violation : EXIT.undecided;
}

function replayLine(adapter: string, seed: number, counterexamplePath: string | undefined, profile: CheckProfile, maxSteps: number): string {
  const named = profile === 'default' ? '' : ` --profile ${profile}`;
  const steps = maxSteps === PROFILES[profile].maxSteps ? '' : ` --max-steps ${maxSteps}`;
  const where = counterexamplePath === undefined ? '' : ` --path ${counterexamplePath}`;
  return `npx testbed check --adapter ${shellWord(adapter)}${named} --seed ${seed}${where}${steps}`;
}

function summary(result: CheckResult) {
  const base = { verdict: result.verdict, seed: result.seed, runs: result.runs, elapsedMs: Math.round(result.elapsedMs) };
  if (result.verdict === 'undecided') return { ...base, reason: result.reason };
  const fences = { fencing: result.fencing, notJudged: result.notJudged };
  if (result.verdict === 'pass') return { ...base, ...fences };
  const { path: counterexamplePath, shrinks, firstFailureMs, steps, broken } = result;
  return { ...base, ...fences, rule: broken.rule, why: broken.why, path: counterexamplePath, shrinks, firstFailureMs: Math.round(firstFailureMs), steps, flaky: result.flaky !== undefined, ...(result.restoreLeaks === undefined ? {} : { restoreLeaks: result.restoreLeaks }) };
}

/** The line saying what a store without integer fences was not judged on (none for integer fences). */
function notJudgedLine(result: Extract<CheckResult, { fencing: unknown }>): string[] {
  if (result.notJudged.length === 0) return [];
  return [pc.yellow(`  not judged (capabilities.fencing '${result.fencing}'): ${result.notJudged.join('; ')}`)];
}

/** What the check says of a store whose restore to empty left state behind (none otherwise). */
function restoreLeakLines(result: Extract<CheckResult, { verdict: 'fail' }>): string[] {
  if (result.restoreLeaks === undefined) return [];
  const how = result.restoreLeaks.reproduced
    ? 'the check ran again on a fresh store per sequence and this counterexample is from that run: it replays alone'
    : 'on a fresh store per sequence the check found none: this one diverges only after earlier sequences in the same store';
  return [`${pc.red('restore leaks')}: the first divergence showed on a store restored to its empty image and not on a fresh one, so its restore leaves state behind; ${how}`];
}

function render(adapter: string, result: CheckResult, replay: string, file: string | null): string {
  const head = `check ${pc.bold(adapter)} seed ${result.seed}:`;
  if (result.verdict === 'pass') {
    const policyOnly = findMutant(adapter)?.flips !== undefined;
    const note = policyOnly ? pc.dim('\n  (this mutant breaks the controller policy, not the store: the command-level check cannot see it; use sweep)') : '';
    return [`${head} ${pc.green('agrees with the model')} on ${result.runs} sequences (${Math.round(result.elapsedMs)} ms)${note}`, ...notJudgedLine(result)].join('\n');
  }
  if (result.verdict === 'undecided') return `${head} ${pc.yellow('undecided')}: ${result.reason}\nreplay: ${replay}`;
  const last = result.steps[result.steps.length - 1]!;
  return [
    `${head} ${pc.red('DIVERGES from the model')} at step ${last.index} of ${result.steps.length}`,
    `${pc.red(result.broken.rule)}: ${result.broken.why}`,
    pc.dim(`  first divergence after ${Math.round(result.firstFailureMs)} ms; shrunk ${result.shrinks} times; ${result.runs} sequences in ${Math.round(result.elapsedMs)} ms`),
    ...notJudgedLine(result),
    ...(result.fencing === 'opaque' ? [pc.dim("  (the store was sent its own fences; they are shown by the model's tokens they stand for)")] : []),
    ...formatCounterexample(result.steps),
    // A flaky divergence is still one found (exit 1): the store did answer otherwise than the model.
    ...restoreLeakLines(result),
    ...(result.flaky === undefined ? [] : [`${pc.red('flaky')}: run again, the same ${result.sequence.length} steps agreed with the model: still a divergence found; the store does not answer alike for the same commands, so the replay line need not show it`]),
    `failure written to ${file}`,
    `replay: ${replay}`,
  ].join('\n');
}

type CheckFailure = Extract<CheckResult, { verdict: 'fail' }>;

/**
 * What `out/failures/check-<adapter>-<seed>.json` holds: everything the counterexample is found
 * again with (every flag that changed the run: cli/replayed-flags.ts), its replay line and steps.
 */
export interface CheckFailureFile {
  readonly kind: 'check';
  readonly adapter: string;
  readonly seed: number;
  readonly profile: CheckProfile;
  readonly maxSteps: number;
  readonly path: string;
  readonly replay: string;
  readonly steps: CheckFailure['steps'];
  readonly sequence: CheckFailure['sequence'];
  /** The steps of the run that agreed with the model, when the divergence was flaky. */
  readonly rerun?: NonNullable<CheckFailure['flaky']>['rerun'];
}

async function writeCheckFailure(run: Pick<CheckFailureFile, 'adapter' | 'profile' | 'maxSteps'>, result: CheckFailure, replay: string): Promise<string> {
  const file = path.join('out', 'failures', `check-${run.adapter.replace(/[^a-z0-9-]+/gi, '_')}-${result.seed}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  const document: CheckFailureFile = {
    kind: 'check',
    adapter: run.adapter,
    seed: result.seed,
    profile: run.profile,
    maxSteps: run.maxSteps,
    path: result.path,
    replay,
    steps: result.steps,
    sequence: result.sequence,
    ...(result.flaky === undefined ? {} : { rerun: result.flaky.rerun }),
  };
  await writeFile(file, `${JSON.stringify(document, null, 1)}\n`);
  return file;
}
