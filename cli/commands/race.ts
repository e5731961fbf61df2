// `testbed race`: every interleaving of small sets of concurrent calls on a PostgreSQL store, or
// seeded random or PCT samples of them (`--strategy`), judged against the reference model
// (campaign/race/). Exit 0 when no schedule broke a rule (the
// summary says whether every schedule ran: `exhausted`), 1 when one did (the smallest first
// failure of a case is printed and written as a failure file that `testbed replay` reproduces),
// 2 on bad input, 3 when a case could not be decided.

import { backendChoices, backendOf } from '../../backends/index.ts';
import pc from 'picocolors';
import { ALL_COMMAND_KINDS } from '../../campaign/check/command-arbitraries.ts';
import { replayChooser, runAndJudge, sessionsOf, type CaseResult } from '../../campaign/race/explore.ts';
import { loadClassifier } from '../../campaign/race/independence.ts';
import { RaceSession } from '../../campaign/race/race-session.ts';
import { caseRunner, type RaceWorker, type Strategy } from '../../campaign/race/run-case.ts';
import type { RaceFile } from '../../campaign/race/race-file.ts';
import { caseOf, raceCases, shardOf, type RaceCase } from '../../campaign/race/space.ts';
import type { CommandKind } from '../../model/commands.ts';
import { resolveAdapter } from '../../backends/index.ts';
import { EXIT, UndecidedError, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { count, failureText, report, type Tally } from './race-output.ts';
import { checkOutDir } from '../out-dir.ts';
import { startProgress } from '../progress.ts';
import { parseSeed, shardFrom } from '../seeds.ts';
import type { RaceCommandOptions } from './race-flags.ts';

/** Preemptions a schedule may make inside functions unless --preemptions says otherwise. */
export const DEFAULT_FUNCTION_PREEMPTIONS = 2;
/** Schedules per case unless --max-schedules says otherwise: the exhaustive budget, and the samples of random and pct. */
const DEFAULT_MAX_SCHEDULES = { exhaustive: 5000, sampled: 50 } as const;

function positive(value: string, flag: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got '${value}'`);
  return Number(value);
}

/** Whether race can run on an adapter: a store on PostgreSQL whose statements it can hold. */
function racesOn(spec: string): boolean {
  return backendOf(spec)?.interleavable === true;
}

function preemptionsOf(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 100) throw new UsageError(`--preemptions must be a whole number from 0 to 100, got '${value}'`);
  return Number(value);
}

function kindsOf(option: string | undefined, declared: ReadonlyArray<CommandKind> | undefined): CommandKind[] {
  const implemented = declared ?? ALL_COMMAND_KINDS;
  if (option === undefined) return [...implemented];
  const wanted = option.split(',').map((k) => k.trim()).filter((k) => k !== '');
  for (const kind of wanted) {
    if (!(ALL_COMMAND_KINDS as ReadonlyArray<string>).includes(kind)) throw new UsageError(`--kinds: unknown command kind '${kind}'; known: ${ALL_COMMAND_KINDS.join(', ')}`);
    if (!(implemented as ReadonlyArray<string>).includes(kind)) throw new UsageError(`--kinds: the store does not implement ${kind}`);
  }
  if (wanted.length === 0) throw new UsageError('--kinds names no command kind');
  return ALL_COMMAND_KINDS.filter((k) => wanted.includes(k));
}

/** How each case's schedules are chosen: every one (a preemption bound aside), or samples. */
function strategyOf(options: RaceCommandOptions, insideFunctions: boolean, sampling: { readonly seed: number; readonly pctDepth: number }): Strategy {
  const name = options.strategy;
  if (name !== 'exhaustive' && name !== 'random' && name !== 'pct') throw new UsageError(`bad --strategy '${name}': expected exhaustive, random or pct`);
  const maxSchedules = positive(options.maxSchedules ?? String(DEFAULT_MAX_SCHEDULES[name === 'exhaustive' ? 'exhaustive' : 'sampled']), '--max-schedules', 1_000_000);
  if (name !== 'exhaustive') {
    if (options.preemptions !== undefined) throw new UsageError(`--preemptions bounds --strategy exhaustive; ${name} schedules are not bounded`);
    return { name, maxSchedules, ...sampling };
  }
  const preemptions = options.preemptions === undefined ? (insideFunctions ? DEFAULT_FUNCTION_PREEMPTIONS : null) : preemptionsOf(options.preemptions);
  return { name, maxSchedules, preemptions };
}

/** PCT samples per case stepping inside functions after the exploration between statements, unless --function-samples says otherwise. */
export const DEFAULT_FUNCTION_SAMPLES = 10;

function functionSamplesOf(options: RaceCommandOptions, insideFunctions: boolean): number {
  if (options.functionSamples === undefined) return insideFunctions ? 0 : DEFAULT_FUNCTION_SAMPLES;
  if (insideFunctions) throw new UsageError('--function-samples adds samples inside functions to an exploration between statements; --inside-functions already steps inside them');
  if (!/^\d+$/.test(options.functionSamples) || Number(options.functionSamples) > 100_000) throw new UsageError(`--function-samples must be a whole number from 0 to 100000, got '${options.functionSamples}'`);
  return Number(options.functionSamples);
}

export async function raceCommand(options: RaceCommandOptions): Promise<void> {
  const spec = options.adapter;
  if (!racesOn(spec)) {
    throw new UsageError(`race needs a store on PostgreSQL (${backendChoices((b) => b.interleavable)} that connects to options.connectionString), not ${spec}`);
  }
  const depth = positive(options.depth, '--depth', 3);
  if (depth < 2) throw new UsageError('--depth must be 2 or 3: a race needs two calls');
  const insideFunctions = options.insideFunctions === true;
  // The seed and depth of every sampled schedule: of --strategy random|pct, and of the samples inside functions.
  const seed = parseSeed(options.seed);
  const pctDepth = positive(options.pctDepth, '--pct-depth', 10);
  const strategy = strategyOf(options, insideFunctions, { seed, pctDepth });
  const stopAtFirst = options.stopAtFirst === true;
  const functionSamples = functionSamplesOf(options, insideFunctions);
  const workers = positive(options.workers, '--workers', 8);
  // Names are checked before any server starts; whether the store implements them, after.
  kindsOf(options.kinds, undefined);
  const shard = shardFrom(options.shard);
  if (stopAtFirst && shard !== undefined) throw new UsageError('--stop-at-first cannot be used with --shard: which case fails first is a question for the whole run');
  await checkOutDir(options.out);
  const adapter = await resolveAdapter(spec, { interleave: insideFunctions ? 'random-functions' : 'random' });
  if (adapter.interleave === undefined) {
    await adapter.close();
    throw new UsageError(`race needs a store whose statements it can hold: ${spec} does not take options.connectionString`);
  }
  const tally: Tally = { cases: 0, schedules: 0, insideSchedules: 0, pruned: 0, beyondBound: 0, bounded: [], undecided: [], failing: [], largest: [] };
  const stepping = functionSamples > 0 ? adapter.interleave.withStrategy('random-functions') : null;
  const pool: RaceWorker[] = Array.from({ length: workers }, () => ({
    between: new RaceSession(adapter.interleave!, sessionsOf(depth)),
    inside: stepping === null ? null : new RaceSession(stepping, sessionsOf(depth)),
  }));
  try {
    const declared = await pool[0]!.between.declaredKinds();
    const fencing = await pool[0]!.between.fencingKind();
    const renewal = await pool[0]!.between.renewalKind();
    const kinds = kindsOf(options.kinds, declared);
    await loadClassifier();
    const all = raceCases(kinds, depth, declared ?? ALL_COMMAND_KINDS, undefined, renewal);
    const cases = shard === undefined ? all : shardOf(all, shard);
    await exploreAll(cases, pool, caseRunner(strategy, { samples: functionSamples, seed, pctDepth }), { stopAtFirst, json: options.json === true }, tally);
    await report(tally, { spec, fencing, depth, kinds, insideFunctions, functionSamples, seed, pctDepth, strategy, stopAtFirst, out: options.out, json: options.json === true, total: cases.length, ...(shard === undefined ? {} : { shard }) });
  } finally {
    await Promise.allSettled(pool.flatMap((worker) => [worker.between.close(), worker.inside?.close()]));
    await adapter.close();
  }
}

/**
 * Every case, each explored whole by one worker on stores of its own (a schema each); a case's
 * schedules run one at a time, so what a case finds does not depend on the others. A case that
 * could not run (a stall, a lost connection) is undecided, and the others go on on fresh stores.
 * Cases start in case order, so under `stopAtFirst` every case before the first failing one has
 * started when it fails, and runs to its end: the first failing case is the same on every run.
 */
async function exploreAll(cases: ReadonlyArray<RaceCase>, pool: ReadonlyArray<RaceWorker>, runCase: ReturnType<typeof caseRunner>, how: { stopAtFirst: boolean; json: boolean }, tally: Tally): Promise<void> {
  const progress = startProgress(cases.length, 'race', !how.json, 'cases');
  let next = 0;
  const work = async (worker: RaceWorker): Promise<void> => {
    while (next < cases.length && !(how.stopAtFirst && tally.failing.length > 0)) {
      const raceCase = cases[next++]!;
      let result: CaseResult;
      try {
        result = await runCase(worker, raceCase);
      } catch (error) {
        await Promise.allSettled([worker.between.close(), worker.inside?.close()]);
        result = { outcome: 'undecided', schedules: 0, pruned: 0, beyondBound: 0, why: `could not run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
      }
      count(tally, raceCase, result);
      progress.tick(`${tally.schedules} schedules, ${tally.failing.length} failing`);
    }
  };
  const outcomes = await Promise.allSettled(pool.map(work));
  progress.stop();
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

export async function replayRace(path: string, file: RaceFile, json: boolean): Promise<void> {
  if (!racesOn(file.adapter)) throw new UsageError(`${path}: not a race failure file: race never runs on adapter ${file.adapter}`);
  const raceCase = caseOf(file.kinds as CommandKind[], file.state, file.actors);
  if (raceCase === null) throw new UsageError(`${path}: not a failure file: state '${file.state}' does not apply to ${file.kinds.join('+')}`);
  const adapter = await resolveAdapter(file.adapter, { interleave: file.insideFunctions ? 'random-functions' : 'random' });
  if (adapter.interleave === undefined) {
    await adapter.close();
    throw new UsageError(`${path}: adapter ${file.adapter} does not take options.connectionString`);
  }
  const session = new RaceSession(adapter.interleave, sessionsOf(file.kinds.length));
  let outcome;
  try {
    await loadClassifier();
    // The case again in the store's renewal variant (the same case for a store whose renewals extend).
    const inVariant = caseOf(file.kinds as CommandKind[], file.state, file.actors, await session.renewalKind()) ?? raceCase;
    outcome = await runAndJudge(session, inVariant, replayChooser(file.schedule));
  } catch (error) {
    throw new UndecidedError(`replay of ${path} could not run the schedule: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await session.close();
    await adapter.close();
  }
  const exact = outcome.run.traceHash === file.traceHash;
  const failed = outcome.verdict.kind === 'fail';
  process.exitCode = !exact ? EXIT.undecided : failed ? EXIT.violation : outcome.verdict.kind === 'pass' ? EXIT.ok : EXIT.undecided;
  if (json) {
    printJson({ type: 'race', kinds: file.kinds, state: file.state, adapter: file.adapter, verdict: outcome.verdict, traceHash: outcome.run.traceHash, expectedTraceHash: file.traceHash, exact });
    return;
  }
  for (const line of failureText({ raceCase, result: { outcome: failed ? 'fail' : 'pass', schedules: 1, pruned: 0, beyondBound: 0, failure: { verdict: outcome.verdict, run: outcome.run } } })) process.stdout.write(`${line}\n`);
  process.stdout.write(`trace ${outcome.run.traceHash}\n`);
  process.stdout.write(exact ? pc.green('trace hash matches the failure file\n') : pc.yellow(`trace hash differs from the failure file (${file.traceHash.slice(0, 16)})\n`));
}
