// `testbed run`: one scenario, one seed, one adapter. A failing run is shrunk (on a store that
// answers alike on every run), written to out/failures/ and printed with its replay line. One
// that does not fail again when played to be shrunk is flaky: filed with both runs, and named.

import { backendOf, realFaultAdapter } from '../../backends/index.ts';
import pc from 'picocolors';
import type { Scenario } from '../../scenarios/index.ts';
import { runScenario, type Plan, type SimRunResult } from '../../sim/run.ts';
import { presentFields } from '../../campaign/present-fields.ts';
import { resolveAdapter, type ResolvedAdapter } from '../../backends/index.ts';
import { during, EXIT, UsageError } from '../errors.ts';
import { formatRun, printJson, runJson } from '../format.ts';
import { startRealRun } from '../../campaign/real-faults.ts';
import { interleaveStrategy } from '../interleave-arg.ts';
import { flakyLine } from '../flaky-output.ts';
import { recordFailure, unwrittenLine } from '../record-failure.ts';
import { replayCommandLine } from '../replay-trust.ts';
import { loadScenarioOrFail, planOrFail, replayFor } from '../scenario-arg.ts';
import { parseSeed } from '../seeds.ts';
import { checkPagePath, failurePageInput, pageJson, pagePath, writeRunPage, type WrittenPage } from '../run-page.ts';
import type { RunReportInput } from '../../reports/run-report.ts';
import type { RunOptions } from './run-flags.ts';

export async function runCommand(options: RunOptions): Promise<void> {
  const scenario = loadScenarioOrFail(options.scenario);
  const seed = parseSeed(options.seed);
  if (options.faults === 'real' && backendOf(options.adapter)?.realFaults !== true) {
    throw new UsageError(`--faults real needs --adapter ${realFaultAdapter()} (got ${options.adapter})`);
  }
  const strategy = interleaveStrategy(options.interleave, options.faults, options.concurrency);
  // The plan first: a scenario that cannot make one is bad input, found before any server starts.
  const plan = planOrFail(scenario, seed);
  // The page's path too: one that cannot be written is bad input, found before anything runs.
  const pageFile = options.report === undefined ? null : pagePath(options.report, scenario.name, seed, options.faults === 'real' ? realFaultAdapter() : options.adapter);
  if (pageFile !== null) await checkPagePath(pageFile);
  const real = options.faults === 'real' ? await startRealRun(seed) : undefined;
  const adapter: ResolvedAdapter =
    real === undefined ? await resolveAdapter(options.adapter, strategy === undefined ? {} : { interleave: strategy }) : { name: realFaultAdapter(), store: real.store, close: () => real.close() };
  try {
    const replay = replayFor(options.scenario, seed, adapter.name, options.faults, strategy);
    if (!options.json) process.stderr.write(pc.dim(`${replay}\n${derivedOptions(plan)}\n`));
    const result = await during(`${scenario.name} seed ${seed} on ${adapter.name}`, () =>
      runScenario({
        scenario,
        seed,
        plan,
        store: adapter.store,
        faults: options.faults,
        replay,
        ...(real === undefined ? {} : { realFaults: real.driver }),
        ...(adapter.policy === undefined ? {} : { policy: adapter.policy }),
        ...(adapter.interleave === undefined ? {} : { interleave: adapter.interleave }),
      }),
    );
    await report(result, adapter, { ...options, pageFile }, scenario);
  } finally {
    await adapter.close();
  }
}

/** The seed's derived settings (swarm mode draws the fault mix from the seed): printed at start. */
function derivedOptions(plan: Plan): string {
  const knobs = Object.entries(plan.faults)
    .filter(([, value]) => value !== 0)
    .map(([name, value]) => `${name}=${value}`);
  return `seed ${plan.seed}: ${plan.steps.length} plan steps, ${plan.controllers} controllers, horizon ${plan.horizonMs} ms${plan.swarm ? ', swarm' : ''}; faults: ${knobs.length > 0 ? knobs.join(' ') : 'none'}${coordinationOptions(plan)}${federationOptions(plan)}`;
}

/** The federation settings of a federated plan (sites, each domain's first authority site, federation faults). */
function federationOptions(plan: Plan): string {
  const f = plan.federation;
  if (f === undefined) return '';
  const faults = Object.entries(f.faults).filter(([, value]) => value !== 0).map(([name, value]) => `${name}=${value}`);
  return `; federation: ${f.sites} sites, authority ${f.domains.map((d) => `${d.domain}@site ${d.site}`).join(', ')}, faults: ${faults.length > 0 ? faults.join(' ') : 'none'}`;
}

/** The coordination settings of a seed 001 plan (voters, role, timing, coordination faults). */
function coordinationOptions(plan: Plan): string {
  const c = plan.coordination;
  if (c === undefined) return '';
  const faults = Object.entries(c.faults).filter(([, value]) => value !== 0).map(([name, value]) => `${name}=${value}`);
  return `; coordination: ${c.voters} voters, role ${c.role}, election ${c.electionTimeoutMsMin}–${c.electionTimeoutMsMax} ms, heartbeat ${c.heartbeatMs} ms, step-down ${c.stepDownMs} ms, faults: ${faults.length > 0 ? faults.join(' ') : 'none'}`;
}

async function report(result: SimRunResult, adapter: ResolvedAdapter, options: RunOptions & { readonly pageFile: string | null }, scenario: Scenario): Promise<void> {
  if (!options.json) {
    process.stdout.write(`${formatRun(result)}\n`);
    for (const action of result.realActions) process.stdout.write(pc.dim(`  real fault ${action.f}: ${action.outcome}\n`));
    // Nothing after this point was compared with the reference model: say so, it bounds what the run proved.
    if (result.shadow?.stoppedBecause != null) process.stdout.write(pc.dim(`  reference model stopped after ${result.shadow.compared} commands: ${result.shadow.stoppedBecause}\n`));
  }
  if (result.valid === false) {
    const recorded = await recordFailure(result, scenario, adapter, options.shrink);
    if (!options.json) {
      // A flaky failure is still a violation found (exit 1): the run above did break the rule.
      if (recorded.flaky !== null) process.stdout.write(`${flakyLine(recorded.flaky)}\n`);
      if (recorded.shrinkStopped !== null) process.stdout.write(`${pc.yellow('not shrunk')}: ${recorded.shrinkStopped}\n`);
      if (recorded.counterexample !== null) process.stdout.write(`\n${recorded.counterexample}\n`);
      else if (recorded.writeError === null) process.stdout.write(`failure written to ${recorded.file} (replay: ${replayCommandLine(recorded.file, adapter.name)})\n`);
    }
    if (recorded.writeError !== null) process.stderr.write(`${unwrittenLine(recorded.writeError)}\n`);
    const page = await pageFor(options, () => failurePageInput(result, recorded, adapter.name));
    if (page?.error != null) process.stderr.write(`${unwrittenLine(page.error)}\n`);
    if (options.json) {
      const flaky = recorded.flaky === null ? { flaky: false } : { flaky: true, rerun: recorded.flaky.rerun };
      const failureFile = recorded.writeError === null ? { failureFile: recorded.file } : { failureFile: null, failureFileError: recorded.writeError };
      printJson({ ...runJson(result), ...failureFile, shrunk: recorded.shrunk, ...flaky, ...presentFields({ shrinkStopped: recorded.shrinkStopped }), ...pageJson(page) });
    }
    process.exitCode = EXIT.violation;
    return;
  }
  const page = await pageFor(options, () => ({ run: result }));
  if (page?.error != null) process.stderr.write(`testbed: ${page.error}\n`);
  if (options.json) printJson({ ...runJson(result), ...pageJson(page) });
  // An untested run is not a failure to decide: the store declared it does not do what it needs.
  // A page asked for and not written leaves the command undone: undecided.
  process.exitCode = page?.error != null ? EXIT.undecided : result.valid === true || result.untested !== undefined ? EXIT.ok : EXIT.undecided;
}

/** Writes the run's page when `--report` asks for one (null when it does not), and says where in text mode. */
async function pageFor(options: RunOptions & { readonly pageFile: string | null }, input: () => RunReportInput): Promise<WrittenPage | null> {
  if (options.pageFile === null) return null;
  const page = await writeRunPage(options.pageFile, input());
  if (!options.json && page.error === null) process.stdout.write(`report written to ${page.file}\n`);
  return page;
}
