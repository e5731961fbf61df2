// What `testbed race` reports (cli/commands/race.ts): the tally over its cases, the summary for
// the console and `--json`, the smallest failing schedule as numbered steps and as a failure file
// `testbed replay` reproduces, and under `--shard` a shard file that `testbed merge` combines
// with the other shards' into the verdict of the whole (race-merge.ts).

import { join } from 'node:path';
import pc from 'picocolors';
import type { CaseResult } from '../../campaign/race/explore.ts';
import type { Strategy } from '../../campaign/race/run-case.ts';
import { writeRaceFile, type RaceFile } from '../../campaign/race/race-file.ts';
import { writeRaceShard, type RaceSummary } from '../../campaign/race/race-shard.ts';
import { describeSchedule } from '../../campaign/race/schedule-text.ts';
import type { RaceCase } from '../../campaign/race/space.ts';
import { notJudgedBy } from '../../campaign/race/judge.ts';
import type { CommandKind } from '../../model/commands.ts';
import type { FencingKind } from '../../sim/fence-ids.ts';
import { EXIT } from '../errors.ts';
import { printJson } from '../format.ts';
import { packageVersion } from '../version.ts';
import { replayCommandLine } from '../replay-trust.ts';

export interface Tally {
  cases: number;
  schedules: number;
  /** Of `schedules`, those sampled stepping inside functions (--function-samples). */
  insideSchedules: number;
  pruned: number;
  beyondBound: number;
  bounded: Array<{ kinds: ReadonlyArray<string>; state: string }>;
  undecided: Array<{ kinds: ReadonlyArray<string>; state: string; why: string }>;
  failing: Array<{ raceCase: RaceCase; result: CaseResult }>;
  /** The cases that ran the most schedules (at most LARGEST), largest first. */
  largest: Array<{ kinds: ReadonlyArray<string>; state: string; actors: string; schedules: number }>;
}

export const LARGEST = 10;

export function count(tally: Tally, raceCase: RaceCase, result: CaseResult): void {
  tally.cases++;
  tally.schedules += result.schedules;
  tally.insideSchedules += result.insideSchedules ?? 0;
  tally.pruned += result.pruned;
  tally.beyondBound += result.beyondBound;
  const name = { kinds: raceCase.kinds, state: raceCase.state.name };
  tally.largest.push({ ...name, actors: raceCase.actors, schedules: result.schedules });
  tally.largest.sort((a, b) => b.schedules - a.schedules);
  tally.largest.length = Math.min(tally.largest.length, LARGEST);
  if (result.outcome === 'fail') tally.failing.push({ raceCase, result });
  else if (result.outcome === 'bounded') tally.bounded.push(name);
  else if (result.outcome === 'undecided') tally.undecided.push({ ...name, why: result.why ?? '' });
}

export interface ReportContext {
  readonly spec: string;
  /** What fences the store's leases: a store without integer fences is judged on what they allow (judge.ts). */
  readonly fencing: FencingKind;
  readonly depth: number;
  readonly kinds: ReadonlyArray<CommandKind>;
  readonly insideFunctions: boolean;
  /** PCT samples per case stepping inside functions after the exploration between statements. */
  readonly functionSamples: number;
  /** The seed and PCT depth of sampled schedules (random, pct, and the samples inside functions). */
  readonly seed: number;
  readonly pctDepth: number;
  readonly strategy: Strategy;
  /** The first failing case in case order is reported, not the smallest failure. */
  readonly stopAtFirst: boolean;
  readonly out: string;
  readonly json: boolean;
  readonly total: number;
  readonly shard?: { readonly index: number; readonly count: number };
}

type Failing = Tally['failing'][number];

/** A failure's size: runs of one session, then steps (a failure with no schedule, from the setup, is the largest). */
function sizeOf(f: Failing): number {
  const schedule = f.result.failure?.run?.batch.schedule;
  return schedule === undefined ? Number.MAX_SAFE_INTEGER : describeSchedule(schedule, []).length * 10_000 + schedule.length;
}

/** The failing case whose schedule is smallest, ties to the earlier case (`first`: the earliest case). */
function smallest(failing: ReadonlyArray<Failing>, first: boolean): Failing | null {
  let best: Failing | null = null;
  for (const f of failing) {
    const earlier = best === null || f.raceCase.index < best.raceCase.index;
    if (best === null || (first ? earlier : sizeOf(f) < sizeOf(best) || (sizeOf(f) === sizeOf(best) && earlier))) best = f;
  }
  return best;
}

/** The failure file of a failing schedule (null: the case failed in its setup, with no schedule to replay). */
function failureFileOf(worst: Failing, context: ReportContext, path: string): RaceFile | null {
  const run = worst.result.failure!.run;
  if (run === null) return null;
  return {
    version: 1,
    type: 'race',
    adapter: context.spec,
    insideFunctions: worst.result.failure!.insideFunctions ?? context.insideFunctions,
    kinds: [...worst.raceCase.kinds],
    state: worst.raceCase.state.name,
    actors: worst.raceCase.actors,
    schedule: [...run.batch.schedule],
    violation: { rule: worst.result.failure!.verdict.rule ?? 'unknown', message: worst.result.failure!.verdict.message ?? '' },
    traceHash: run.traceHash,
    replay: replayCommandLine(path, context.spec),
  };
}

function summaryOf(tally: Tally, context: ReportContext): RaceSummary {
  const strategy = context.strategy;
  const exhaustive = strategy.name === 'exhaustive';
  return {
    adapter: context.spec,
    depth: context.depth,
    kinds: [...context.kinds],
    insideFunctions: context.insideFunctions,
    functionSamples: context.functionSamples,
    strategy: strategy.name,
    ...(exhaustive && context.functionSamples === 0 ? {} : { seed: context.seed }),
    ...(strategy.name === 'pct' || context.functionSamples > 0 ? { pctDepth: context.pctDepth } : {}),
    preemptionBound: exhaustive ? strategy.preemptions : null,
    maxSchedules: strategy.maxSchedules,
    stopAtFirst: context.stopAtFirst,
    ...(context.fencing === 'integer' ? {} : { fencing: context.fencing, notJudged: notJudgedBy(context.fencing) }),
    ...(context.shard === undefined ? {} : { shard: `${context.shard.index}/${context.shard.count}` }),
    cases: tally.cases,
    schedules: tally.schedules,
    insideSchedules: tally.insideSchedules,
    prunedBranches: tally.pruned,
    branchesBeyondBound: tally.beyondBound,
    // Every schedule of every case ran: none sampled, none bounded, none past a preemption bound, none cut short by a failure or no verdict.
    exhausted: exhaustive && tally.bounded.length === 0 && tally.beyondBound === 0 && tally.failing.length === 0 && tally.undecided.length === 0,
    largestCases: tally.largest.map((l) => ({ ...l, kinds: [...l.kinds] })),
    bounded: tally.bounded.slice(0, 100).map((b) => ({ kinds: [...b.kinds], state: b.state })),
    undecided: tally.undecided.slice(0, 100).map((u) => ({ kinds: [...u.kinds], state: u.state, why: u.why })),
    failing: tally.failing.length,
    failures: tally.failing.slice(0, 100).map(({ raceCase, result }) => ({
      kinds: [...raceCase.kinds],
      state: raceCase.state.name,
      actors: raceCase.actors,
      rule: result.failure!.verdict.rule ?? 'unknown',
      message: result.failure!.verdict.message ?? '',
      schedule: [...(result.failure!.run?.batch.schedule ?? [])],
    })),
  };
}

/** The exit code of a summary: 1 on a failure, else 3 when a case was undecided, else 0. */
export function exitOf(summary: RaceSummary): number {
  return summary.failing > 0 ? EXIT.violation : summary.undecided.length > 0 ? EXIT.undecided : EXIT.ok;
}

export async function report(tally: Tally, context: ReportContext): Promise<void> {
  tally.failing.sort((a, b) => a.raceCase.index - b.raceCase.index);
  const worst = smallest(tally.failing, context.stopAtFirst);
  const path = join(context.out, 'race-failure.json');
  const file = worst === null ? null : failureFileOf(worst, context, path);
  if (file !== null) await writeRaceFile(path, file);
  const summary = summaryOf(tally, context);
  if (context.shard !== undefined) {
    const { index, count } = context.shard;
    const failure = file === null ? null : { size: sizeOf(worst!), caseIndex: worst!.raceCase.index, file };
    await writeRaceShard(join(context.out, `race-shard-${index}-of-${count}.json`), { version: 1, type: 'race-shard', testbed: packageVersion(), shard: { index, count }, summary, failure });
  }
  const document = { ...summary, ...(file === null ? {} : { failureFile: path, replay: file.replay, traceHash: file.traceHash }) };
  process.exitCode = exitOf(summary);
  if (context.json) {
    printJson(document);
    return;
  }
  printSummary(summary);
  if (worst === null) return;
  out(pc.red(context.stopAtFirst ? `a case failed; the first failing case in case order:` : `${tally.failing.length} cases failed; the smallest failing schedule:`));
  for (const line of failureText(worst)) out(line);
  out(file === null ? 'the case failed in its setup: the store differs from the model on serial calls (testbed check finds such bugs)' : `replay: ${file.replay}`);
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);

/** The summary's lines: what was explored, the bounded and undecided cases; for a pass, the verdict. */
export function printSummary(summary: RaceSummary): void {
  const explored = sampledText(summary) ?? (summary.exhausted ? 'every schedule' : summary.preemptionBound === null ? 'schedules up to --max-schedules per case' : `schedules with at most ${summary.preemptionBound} preemptions`);
  const inside = summary.insideFunctions ? ', stepping inside functions' : (summary.insideSchedules ?? 0) > 0 ? `; then ${summary.insideSchedules} PCT samples stepping inside functions, up to ${summary.functionSamples} a case` : '';
  out(`race on ${summary.adapter}: ${summary.cases} cases of ${summary.depth} calls, ${summary.schedules} schedules run (${explored}${inside}), ${summary.prunedBranches} branches skipped as orders of independent steps`);
  if (summary.notJudged !== undefined) out(pc.yellow(`not judged (capabilities.fencing '${summary.fencing}'): ${summary.notJudged.join('; ')}`));
  if (summary.bounded.length > 0) out(pc.yellow(`bounded: ${summary.bounded.length} cases reached --max-schedules before their last schedule (first: ${summary.bounded[0]!.kinds.join('+')} from '${summary.bounded[0]!.state}')`));
  for (const u of summary.undecided.slice(0, 10)) out(pc.yellow(`undecided: ${u.kinds.join('+')} from '${u.state}': ${u.why}`));
  if (summary.stopAtFirst === true && summary.failing > 0) out(pc.yellow('--stop-at-first: cases after the first failing one did not run'));
  if (summary.failing > 0) return;
  out(summary.undecided.length > 0 ? pc.yellow(`no schedule failed; ${summary.undecided.length} cases undecided`) : pc.green('no schedule broke a rule'));
}

function sampledText(summary: RaceSummary): string | null {
  if (summary.strategy !== 'random' && summary.strategy !== 'pct') return null;
  const how = summary.strategy === 'pct' ? `PCT of depth ${String(summary.pctDepth)}` : 'random walks';
  return `up to ${summary.maxSchedules} sampled schedules per case, ${how}, seed ${String(summary.seed)}`;
}

export function failureText({ raceCase, result }: Tally['failing'][number]): string[] {
  const failure = result.failure!;
  const lines = [`  ${raceCase.kinds.join(' + ')} from '${raceCase.state.name}'`];
  for (const { command, at } of raceCase.built.setup) lines.push(`  setup at ${at}: ${JSON.stringify(command)}`);
  raceCase.commands.forEach((command, i) => lines.push(`  s${i + 1} at ${raceCase.arrivals[i]}: ${JSON.stringify(command)}`));
  const run = failure.run;
  if (run !== null) {
    describeSchedule(run.batch.schedule, run.stepSql).forEach((segment, i) => lines.push(`  ${i + 1}. ${segment}`));
    for (const { call, value, error } of run.answers) lines.push(`  s${call + 1} answered ${error === undefined ? JSON.stringify(value) : `error: ${error}`}`);
  }
  lines.push(`  ${failure.verdict.rule}: ${failure.verdict.message ?? ''}`);
  return lines;
}

/** `testbed replay` of a race failure file: the one schedule again, which must give the same trace hash. */