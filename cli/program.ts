// The `testbed` command's program: every subcommand with its flags and their defaults, as
// commander declares them (docs/ARCHITECTURE.md "The CLI contract"). Each subcommand's module under
// cli/commands/ is loaded only when it runs. cli/main.ts runs the program; the docs test reads it
// to check that every flag the documents name exists.

import { backendChoices, backendSyntaxes, defaultRaceAdapter } from '../backends/index.ts';
import { Command, Option } from 'commander';
import { packageVersion } from './version.ts';

const adapterOption = () =>
  new Option('--adapter <adapter>', `${backendSyntaxes()} (exec:<command> is a store in any language speaking JSON lines)`).default('memory');
const faultsOption = () =>
  new Option('--faults <mode>', 'sim keeps faults simulated; real maps them to real actions (postgres only)')
    .choices(['sim', 'real'])
    .default('sim');

const shardOption = () =>
  new Option('--shard <i/n>', 'do only the i-th of n shares of the work (also TESTBED_SHARD=i/n, or TESTBED_SHARDS=n with JOB_COMPLETION_INDEX)');

/** How store calls that meet at a PostgreSQL database run: `run` and `sweep` take both. */
const concurrencyOption = () =>
  new Option('--concurrency <mode>', 'PostgreSQL stores: lockstep (default), or free: calls that meet at the database run at once, unheld (not replayed exactly)');
const interleaveOption = () =>
  new Option('--interleave [strategy]', 'PostgreSQL stores: concurrent store calls in sessions of their own, statements interleaved in a seeded order (random, the default, or pct; random-functions and pct-functions also stop before every statement of PL/pgSQL functions in the run schema)');

export function buildProgram(): Command {
  const program = new Command('testbed')
    .description('Deterministic simulation and verification testbed for leases, fencing, idempotency and coordination epochs')
    .version(packageVersion())
    .option('--verbose', 'print the stack trace of an error, not only its one-line message')
    .exitOverride();

  program
    .command('run')
    .description('run one scenario with one seed')
    .requiredOption('--scenario <name|file.json>', 'scenario name or path to a scenario file')
    .requiredOption('--seed <n>', 'the seed')
    .addOption(adapterOption())
    .addOption(faultsOption())
    .option('--json', 'print one JSON document')
    .option('--no-shrink', 'do not shrink a failing run')
    .option('--report [file]', "write the run's page: its timeline (a failing run: the shrunk counterexample, the failing step marked) (default: out/runs/<scenario>-seed-<n>-<adapter>.html)")
    .addOption(concurrencyOption())
    .addOption(interleaveOption())
    .action(async (options) => (await import('./commands/run.ts')).runCommand(options));

  program
    .command('check')
    .description('command-level model-based check of a store: random command sequences against the reference model, shrunk on the first divergence')
    .addOption(adapterOption())
    .option('--profile <name>', "default (a small world, up to 50 steps, fast) or long (tens of scopes, holders and keys, hundreds of steps: bugs that need many operations)", 'default')
    .option('--runs <n>', "random command sequences to try (default: the profile's, 5000 or 500)")
    .option('--seed <n>', 'the seed (drawn at random and printed when absent)')
    .option('--path <path>', 'replay the counterexample at this path (with its --seed and --profile)')
    .option('--max-steps <n>', "longest sequence of steps (default: the profile's, 50 or 500)")
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/check.ts')).checkCommand(options));

  program
    .command('sweep')
    .description('run a scenario (or all scenarios that must pass) over a range of seeds')
    .requiredOption('--scenario <name|all>', 'scenario name, file, or "all"')
    .requiredOption('--seeds <from..to>', 'seed range, for example 1..500')
    .addOption(adapterOption())
    .addOption(faultsOption())
    .addOption(shardOption())
    .option('--workers <n|auto>', 'worker threads for memory and mutant sweeps (auto: one per core from 256 runs up); on PostgreSQL and for store modules and exec: stores, runs in flight at once (auto: 1 for these)', 'auto')
    .option('--stop-at-first', 'stop at the first failing run (seed 1 of every scenario, then seed 2, ...)')
    .option('--no-shrink', 'do not shrink the first failing run')
    .addOption(concurrencyOption())
    .addOption(interleaveOption())
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/sweep.ts')).sweepCommand(options));

  program
    .command('replay')
    .description('replay a failure file exactly')
    .argument('<failure.json>', 'a failure file written by run, sweep, check or race')
    .option('--adapter <name>', "the store to replay on, as the file names it: needed when that is a store module or exec: command, which replay runs only when named here")
    .option('--trust-file-adapter', 'run the store module or exec: command the file names without naming it again')
    .option('--json', 'print one JSON document')
    .action(async (file, options) => (await import('./commands/replay.ts')).replayCommand(file, options));

  program
    .command('mutants')
    .description('run every built-in mutant and report whether the testbed catches it')
    .option('--seeds <n>', 'seed budget per mutant', '200')
    .option('--out <dir>', 'output directory (failure files, and the shard file of a shard)', 'out')
    .addOption(shardOption())
    .option('--dry-run', "print this shard's share of the mutants and run nothing")
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/mutants.ts')).mutantsCommand(options));

  program
    .command('stress')
    .description('many concurrent clients against one store (each with its own session), then checks over the whole history')
    .addOption(adapterOption())
    .option('--clients <n>', 'concurrent clients', '16')
    .option('--duration <t>', 'how long the clients run: 30s, 500ms, 2m', '10s')
    .option('--seed <n>', "the seed of the clients' choices (drawn at random and printed when absent)")
    .option('--time <clock>', "the store's clock: database (its own) or wall (handed to it); default database on PostgreSQL, wall otherwise")
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/stress.ts')).stressCommand(options));

  program
    .command('race')
    .description('every interleaving of small sets of concurrent calls on a PostgreSQL store, statement by statement, judged against the reference model')
    .option('--adapter <name>', `${backendChoices((b) => b.interleavable)} that connects to options.connectionString`, defaultRaceAdapter())
    .option('--kinds <list>', 'command kinds to race, comma-separated (default: every kind the store implements)')
    .option('--depth <n>', 'calls per case: 2 (pairs) or 3 (triples)', '2')
    .option('--inside-functions', 'also step between the statements of PL/pgSQL functions in the run schema (schedules bounded by --preemptions)')
    .option('--preemptions <n>', 'at most this many switches away from a session that could go on, per schedule (default: none between statements, 2 inside functions)')
    .option('--strategy <name>', 'exhaustive (every schedule, orders of independent steps skipped), random (a random walk per schedule) or pct (PCT schedules of bug depth --pct-depth)', 'exhaustive')
    .option('--max-schedules <n>', 'schedules per case: the budget before a case is reported as bounded (exhaustive, default 5000), or the samples per case (random, pct: default 50)')
    .option('--seed <n>', 'the seed of random and pct schedules', '1')
    .option('--pct-depth <d>', 'PCT bug depth: d - 1 priority change points per schedule, at scheduling points (1 to 10)', '3')
    .option('--stop-at-first', 'start no case after one fails; report the failing case that comes first in case order')
    .option('--function-samples <n>', 'after each case, that many PCT samples that also step inside the PL/pgSQL functions its calls run (default 10; 0: none; --inside-functions explores inside them instead)')
    .option('--workers <n>', 'cases explored at once, each on stores of its own (1 to 8)', '4')
    .addOption(shardOption())
    .option('--out <dir>', 'output directory (the failure file)', 'out')
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/race.ts')).raceCommand(options));

  program
    .command('gates')
    .description('run the gate suite and write the production-readiness report')
    .option('--out <dir>', 'output directory', 'out')
    .option('--seeds <n>', 'seeds per scenario on the memory store', '200')
    .option('--pg-seeds <n>', 'seeds per scenario on PostgreSQL', '5')
    .option('--no-postgres', 'skip the PostgreSQL part (its gates show as untested)')
    .addOption(shardOption())
    .option('--dry-run', "print this shard's share of the work and run nothing")
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/gates.ts')).gatesCommand(options));

  program
    .command('merge')
    .description('combine the shard files of one sharded gates, mutants or race run into the verdict of the whole')
    .argument('<shards...>', 'shard files, or directories holding them (the --out of each shard)')
    .option('--out <dir>', 'output directory', 'out')
    .option('--json', 'print one JSON document')
    .action(async (shards, options) => (await import('./commands/merge.ts')).mergeCommand(shards, options));

  program
    .command('scenarios')
    .description('list the named scenarios')
    .option('--json', 'print one JSON document')
    .action(async (options) => (await import('./commands/scenarios.ts')).scenariosCommand(options));

  program
    .command('report')
    .description('render the gate report from stored results without running anything')
    .argument('<results.json>', 'results written by gates')
    .option('--out <dir>', 'output directory', 'out')
    .action(async (file, options) => (await import('./commands/report.ts')).reportCommand(file, options));

  return program;
}
