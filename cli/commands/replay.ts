// `testbed replay <failure.json>`: re-executes a stored plan exactly and checks that it gives the
// same trace hash; a different hash means the replay was not exact (exit 3).
//
// Exact replay holds for simulated faults on any store that answers the same (the memory store,
// the mutants, PostgreSQL under virtual time). With `--faults real` it cannot hold: the same real
// actions (a promotion, a data-dir restore, a cut link) are taken at the same simulated moments,
// but what a real server has replicated or checkpointed by then, and so what the store answers,
// depends on real timing. Such a replay reports its own verdict and says that the trace differs.
// Nor can it hold for a flaky failure (the file has `rerun`): its plan did not fail again even when
// it was found. A replay of one that differs says so, and exits 1 only if it shows a violation.

import { backendOf, realFaultAdapter } from '../../backends/index.ts';
import { readFile } from 'node:fs/promises';
import pc from 'picocolors';
import { isRaceFile, raceFileSchema, type RaceFile } from '../../campaign/race/race-file.ts';
import { listScenarios } from '../../scenarios/index.ts';
import { FailureFileError, readFailureFile, replayFailure, type FailureFile } from '../../campaign/failure-file.ts';
import { replayLine } from '../../sim/run.ts';
import { findMutant } from '../../mutants/index.ts';
import { INTERLEAVE_STRATEGIES } from '../../adapters/interleaving.ts';
import { resolveAdapter, type ResolvedAdapter } from '../../backends/index.ts';
import { startRealRun } from '../../campaign/real-faults.ts';
import { during, EXIT, UsageError } from '../errors.ts';
import { formatRun, printJson, runJson } from '../format.ts';
import { rerunFound } from '../flaky-output.ts';
import { checkReplayTrust } from '../replay-trust.ts';
import type { ReplayOptions } from './replay-flags.ts';

/** `npx testbed run --scenario <s> --seed <n> --adapter <a> [--faults real]`, as `replayLine` writes it. */
const WORD = `('(?:[^']|'\\\\'')*'|\\S+)`;
const RUN_LINE = new RegExp(`^npx testbed run --scenario ${WORD} --seed (\\d+) --adapter ${WORD}( --faults real)?(?: --interleave (${INTERLEAVE_STRATEGIES.join('|')})| --concurrency (free))?$`);

/** A word of the replay line as the shell reads it (sim/run.ts `shellWord` quotes what it must). */
function unquoted(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}

/**
 * What the file says must agree with itself and name things this testbed knows: a built-in
 * scenario (or a scenario file, named on the replay line), the seed and adapter of the replay line.
 */
function checkConsistent(file: string, failure: FailureFile): void {
  const bad = (problem: string) => new UsageError(`${file}: not a failure file: ${problem}`);
  const line = RUN_LINE.exec(failure.replay);
  const builtIn = listScenarios().some((s) => s.name === failure.scenario);
  if (line === null) {
    if (!builtIn) throw bad(`unknown scenario '${failure.scenario}' (see: npx testbed scenarios)`);
    return;
  }
  const [, quotedScenario, seed, quotedAdapter, real, strategy, free] = line;
  const interleave = strategy ?? free;
  const scenarioArg = unquoted(quotedScenario!);
  const adapter = unquoted(quotedAdapter!);
  // A scenario file is named by its path on the replay line; a built-in scenario by its name.
  if (!scenarioArg!.endsWith('.json')) {
    if (scenarioArg !== failure.scenario) throw bad(`the replay line names scenario ${scenarioArg}, the file ${failure.scenario}`);
    if (!builtIn) throw bad(`unknown scenario '${failure.scenario}' (see: npx testbed scenarios)`);
  }
  if (Number(seed) !== failure.seed) throw bad(`the replay line names seed ${seed}, the file seed ${failure.seed}`);
  if (adapter !== failure.adapter) throw bad(`the replay line names adapter ${adapter}, the file ${failure.adapter}`);
  if ((real === undefined ? 'sim' : 'real') !== failure.faults) throw bad(`the replay line's faults differ from the file's (${failure.faults})`);
  if (failure.mutant !== undefined && findMutant(failure.adapter)?.name !== failure.mutant) throw bad(`mutant ${failure.mutant} ran on adapter ${failure.adapter}`);
  if (interleave !== failure.interleave) throw bad(`the replay line's --interleave or --concurrency differs from the file's (${failure.interleave ?? 'none'})`);
  if (failure.interleave !== undefined && (failure.faults === 'real' || backendOf(failure.adapter)?.interleavable !== true)) {
    throw bad(`interleave ${failure.interleave} cannot have run with ${failure.faults === 'real' ? 'real faults' : `adapter ${failure.adapter}`}`);
  }
  if (failure.interleave === 'free' && failure.violations.length === 0) throw bad('a free-running failure names no violation to look for');
}

export async function replayCommand(file: string, options: ReplayOptions): Promise<void> {
  const race = await raceFileAt(file);
  if (race !== null) {
    checkReplayTrust(file, race.adapter, options);
    return (await import('./race.ts')).replayRace(file, race, options.json === true);
  }
  let failure;
  try {
    failure = await readFailureFile(file);
  } catch (error) {
    if (error instanceof FailureFileError) throw new UsageError(error.message);
    throw error;
  }
  checkConsistent(file, failure);
  checkReplayTrust(file, failure.adapter, options);
  if (failure.faults === 'real' && backendOf(failure.adapter)?.realFaults !== true) throw new UsageError(`${file}: not a failure file: real faults ran on ${failure.adapter}, they need ${realFaultAdapter()}`);
  // A real-fault failure replays on a fresh primary/replica pair with the same real actions.
  const real = failure.faults === 'real' ? await startRealRun(failure.seed) : undefined;
  const adapter: ResolvedAdapter = real === undefined ? await resolveAdapter(failure.adapter, failure.interleave === undefined ? {} : { interleave: failure.interleave }) : { name: realFaultAdapter(), store: real.store, close: () => real.close() };
  if (failure.interleave === 'free') return rerunFreeRunning(file, failure, adapter, options);
  let result;
  try {
    result = await during(`replay of ${file} (${failure.scenario} seed ${failure.seed} on ${adapter.name})`, () => replayFailure(failure, adapter.store, real?.driver, adapter.interleave));
  } finally {
    await adapter.close();
  }
  const exact = result.traceHash === failure.traceHash;
  // Under real faults the trace cannot be exact (see above); the verdict of this replay stands.
  const realInexact = !exact && failure.faults === 'real';
  // A flaky failure did not come back even when it was found: a replay that differs says so.
  const flaky = failure.rerun !== undefined;
  if (options.json) {
    printJson({ ...runJson(result), expectedTraceHash: failure.traceHash, exact, flaky });
  } else if (flaky && !exact && !realInexact) {
    process.stdout.write(`${formatRun(result)}\n${pc.yellow(flakyReplayLine(failure))}${firstDifference(failure.history, result.history)}\n`);
  } else {
    process.stdout.write(`${formatRun(result)}\n`);
    if (exact) process.stdout.write(pc.green('trace hash matches the failure file\n'));
    else if (realInexact) {
      process.stdout.write(
        pc.yellow(
          `trace hash differs from the failure file (${failure.traceHash.slice(0, 16)}), as it may under real faults: the same real actions ran at the same simulated times, ` +
            `but what the servers had replicated or saved by then depends on real timing. The verdict above is this replay's own; ${replayLine(failure.scenario, failure.seed, realFaultAdapter(), 'real')} draws the whole seed again.\n`,
        ),
      );
    } else process.stdout.write(pc.yellow(`trace hash differs from the failure file (${failure.traceHash.slice(0, 16)})${firstDifference(failure.history, result.history)}\n`));
  }
  const verdict = result.valid === false ? EXIT.violation : result.valid === true ? EXIT.ok : EXIT.undecided;
  // A replay of a flaky failure that differs decides nothing, except that a violation it shows is one.
  process.exitCode = exact || realInexact ? verdict : flaky && result.valid === false ? EXIT.violation : EXIT.undecided;
}

/** Why the replay of a flaky failure need not match it: its own re-run, when it was found, did not either. */
function flakyReplayLine(failure: FailureFile): string {
  const rerun = failure.rerun!;
  const invariant = failure.violations[0]?.invariant ?? 'its violation';
  return (
    `trace hash differs from the failure file (${failure.traceHash.slice(0, 16)}): this failure was flaky: when it was found, its plan played again did not show ${invariant} either (${rerunFound(rerun)}), ` +
    `so the store does not answer alike on every run and no replay need match; the verdict above is this replay's own`
  );
}

/** The race failure file at `file` (campaign/race/race-file.ts), or null when the file is not one (read on as a run's failure file). */
async function raceFileAt(file: string): Promise<RaceFile | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
  if (!isRaceFile(json)) return null;
  const parsed = raceFileSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`${file}: not a race failure file: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd());
  return parsed.data;
}

/** Reruns of a free-running failure: its interleaving was the machine's, so replay counts how often it comes back. */
const FREE_RERUNS = 10;

/**
 * A free-running failure (`--concurrency free`) cannot be replayed exactly: the plan is run again
 * FREE_RERUNS times, and the replay says how many of them broke the same invariant, and how many
 * found any violation. Exit 1 when at least one rerun found a violation, 0 when none did.
 */
async function rerunFreeRunning(file: string, failure: FailureFile, adapter: ResolvedAdapter, options: { readonly json?: boolean }): Promise<void> {
  const invariant = failure.violations[0]!.invariant;
  let reproduced = 0;
  let failing = 0;
  try {
    for (let i = 1; i <= FREE_RERUNS; i++) {
      const result = await during(`rerun ${i} of ${file} (${failure.scenario} seed ${failure.seed} on ${adapter.name}, free-running)`, () => replayFailure(failure, adapter.store, undefined, adapter.interleave));
      if (result.violations.some((v) => v.invariant === invariant)) reproduced++;
      if (result.valid === false) failing++;
      if (!options.json) process.stderr.write(pc.dim(`rerun ${i}/${FREE_RERUNS}: ${result.valid === false ? result.violations.map((v) => v.invariant).join(', ') : 'no violation'}\n`));
    }
  } finally {
    await adapter.close();
  }
  if (options.json) printJson({ scenario: failure.scenario, seed: failure.seed, adapter: failure.adapter, concurrency: 'free', invariant, reruns: FREE_RERUNS, reproduced, failing, exact: false });
  else process.stdout.write(`free-running: ${invariant} came back in ${reproduced} of ${FREE_RERUNS} reruns of the plan, and ${failing} reruns found a violation (the interleaving is the machine's, so no rerun is exact)\n`);
  process.exitCode = failing > 0 ? EXIT.violation : EXIT.ok;
}

/** Where a replayed history first parts from the one the failure file recorded (when it has one). */
function firstDifference(recorded: FailureFile['history'], replayed: ReadonlyArray<{ readonly time: number; readonly process: string; readonly type: string; readonly f: string; readonly value: unknown }>): string {
  if (recorded === undefined) return '';
  const line = (e: { readonly time: number; readonly process: string; readonly type: string; readonly f: string } | undefined) => (e === undefined ? 'nothing' : `t=${e.time} ${e.process} ${e.type} ${e.f}`);
  const length = Math.max(recorded.length, replayed.length);
  for (let i = 0; i < length; i++) {
    const a = recorded[i];
    const b = replayed[i];
    if (a === undefined || b === undefined || a.time !== b.time || a.process !== b.process || a.type !== b.type || a.f !== b.f || JSON.stringify(a.value) !== JSON.stringify(b.value)) {
      return `: first different at event #${i}, recorded ${line(a)}, replayed ${line(b)}`;
    }
  }
  return '';
}
