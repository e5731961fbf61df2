// The `testbed` command's program: every subcommand with its flags (docs/ARCHITECTURE.md "The CLI
// contract"). Each subcommand declares its flags once, in cli/commands/<command>-flags.ts
// (cli/flags.ts): commander's options and the type of the options its action receives both come
// from that declaration. Each subcommand's module under cli/commands/ is loaded only when it runs.
// cli/main.ts runs the program; the docs test reads it to check that every flag the documents name
// exists.

import { Command } from 'commander';
import { defineFlags, optionOf, withFlags } from './flags.ts';
import { CHECK_FLAGS } from './commands/check-flags.ts';
import { GATES_FLAGS } from './commands/gates-flags.ts';
import { MUTANTS_FLAGS } from './commands/mutants-flags.ts';
import { MERGE_FLAGS, REPORT_FLAGS, SCENARIOS_FLAGS } from './commands/output-flags.ts';
import { RACE_FLAGS } from './commands/race-flags.ts';
import { REPLAY_FLAGS } from './commands/replay-flags.ts';
import { RUN_FLAGS } from './commands/run-flags.ts';
import { STRESS_FLAGS } from './commands/stress-flags.ts';
import { SWEEP_FLAGS } from './commands/sweep-flags.ts';
import { packageVersion } from './version.ts';

/** The flags of `testbed` itself, before any command (cli/main.ts reads --verbose from the command line). */
const PROGRAM_FLAGS = defineFlags([{ flags: '--verbose', description: 'print the stack trace of an error, not only its one-line message' }]);

/** Each `testbed <command>`: its help text, its operands, and its flags with its action. */
function addCommands(program: Command): void {
  const command = (name: string, description: string) => program.command(name).description(description);

  withFlags(command('run', 'run one scenario with one seed'), RUN_FLAGS, async (options) => (await import('./commands/run.ts')).runCommand(options));
  withFlags(
    command('check', 'command-level model-based check of a store: random command sequences against the reference model, shrunk on the first divergence'),
    CHECK_FLAGS,
    async (options) => (await import('./commands/check.ts')).checkCommand(options),
  );
  withFlags(command('sweep', 'run a scenario (or all scenarios that must pass) over a range of seeds'), SWEEP_FLAGS, async (options) => (await import('./commands/sweep.ts')).sweepCommand(options));
  withFlags(
    command('replay', 'replay a failure file exactly').argument('<failure.json>', 'a failure file written by run, sweep, check or race'),
    REPLAY_FLAGS,
    async (options, [file]) => (await import('./commands/replay.ts')).replayCommand(file!, options),
  );
  withFlags(command('mutants', 'run every built-in mutant and report whether the testbed catches it'), MUTANTS_FLAGS, async (options) => (await import('./commands/mutants.ts')).mutantsCommand(options));
  withFlags(
    command('stress', 'many concurrent clients against one store (each with its own session), then checks over the whole history'),
    STRESS_FLAGS,
    async (options) => (await import('./commands/stress.ts')).stressCommand(options),
  );
  withFlags(
    command('race', 'every interleaving of small sets of concurrent calls on a PostgreSQL store, statement by statement, judged against the reference model'),
    RACE_FLAGS,
    async (options) => (await import('./commands/race.ts')).raceCommand(options),
  );
  withFlags(command('gates', 'run the gate suite and write the production-readiness report'), GATES_FLAGS, async (options) => (await import('./commands/gates.ts')).gatesCommand(options));
  withFlags(
    command('merge', 'combine the shard files of one sharded gates, mutants or race run into the verdict of the whole').argument('<shards...>', 'shard files, or directories holding them (the --out of each shard)'),
    MERGE_FLAGS,
    async (options, shards) => (await import('./commands/merge.ts')).mergeCommand(shards, options),
  );
  withFlags(command('scenarios', 'list the named scenarios'), SCENARIOS_FLAGS, async (options) => (await import('./commands/scenarios.ts')).scenariosCommand(options));
  withFlags(
    command('report', 'render the gate report from stored results without running anything').argument('<results.json>', 'results written by gates'),
    REPORT_FLAGS,
    async (options, [file]) => (await import('./commands/report.ts')).reportCommand(file!, options),
  );
}

export function buildProgram(): Command {
  const program = new Command('testbed')
    .description('Deterministic simulation and verification testbed for leases, fencing, idempotency and coordination epochs')
    .version(packageVersion());
  for (const flag of PROGRAM_FLAGS) program.addOption(optionOf(flag));
  program.exitOverride();
  addCommands(program);
  return program;
}
