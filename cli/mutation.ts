// `npm run mutation`: a StrykerJS mutation run of the protocol code (campaign/mutation/), with
// the gate's must-pass scenarios and its mutants' catches as the test (test/mutation/). Not a
// `testbed` command: StrykerJS is a development dependency, not shipped.
//
//   npm run mutation -- [--shard i/n] [--seeds k] [--out dir] [--dry-run]   one shard (default: the whole run; i/6 ends within about an hour)
//   npm run mutation -- --merge [--out dir]                                    the shards' summaries together
//   npm run mutation -- --file <path> [--file <path>…] [--seeds k] [--out dir]  some protocol files only, to triage
//
// The whole run writes `<out>/summary.json`, which the gate report reads; a shard of n > 1 writes
// `<out>/shard-<i>-of-<n>.json`, and the merge of all n writes `<out>/summary.json`. A run of chosen
// files writes `<out>/files.json`, which nothing reads but the one who asked: it is not the whole
// code. Exit 0 when the killed share reaches the threshold, 1 below it, 2 on bad input, 3 when
// StrykerJS could not run.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../campaign/atomic-write.ts';
import { EQUIVALENT_MUTANTS } from '../campaign/mutation/equivalent.ts';
import { ALL_PROTOCOL_FILES, filesOfShard, protocolDigest } from '../campaign/mutation/protocol-files.ts';
import { mergeSummaries, parseSummary, SCORE_THRESHOLD, summarize, withEquivalents, type MutationSummary } from '../campaign/mutation/summary.ts';
import type { Shard } from '../campaign/shard-plan.ts';
import { describeError, EXIT, UsageError } from './errors.ts';
import { parseShard } from './seeds.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEEDS_DEFAULT = 5;

interface Options {
  readonly shard: Shard;
  /** The protocol files chosen with --file; empty for the shard's share of all of them. */
  readonly files: ReadonlyArray<string>;
  readonly seeds: number;
  readonly out: string;
  readonly merge: boolean;
  readonly dryRun: boolean;
}

function options(argv: ReadonlyArray<string>): Options {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { shard: { type: 'string' }, seeds: { type: 'string' }, out: { type: 'string' }, merge: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, file: { type: 'string', multiple: true } } }).values;
  } catch (error) {
    throw new UsageError(describeError(error));
  }
  const seeds = Number(parsed.seeds ?? SEEDS_DEFAULT);
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 1000) throw new UsageError(`bad --seeds "${parsed.seeds}": an integer from 1 to 1000`);
  if (parsed.merge === true && (parsed.shard !== undefined || parsed.seeds !== undefined || parsed.file !== undefined)) throw new UsageError('--merge reads the shards\' files: it takes no --shard, --seeds or --file');
  if ((parsed.file ?? []).some((f) => f.trim() === '')) throw new UsageError('--file needs a path: one of the protocol files campaign/mutation/protocol-files.ts lists');
  const files = (parsed.file ?? []).map((f) => path.relative(ROOT, path.resolve(f)).replaceAll('\\', '/'));
  if (files.length > 0 && parsed.shard !== undefined) throw new UsageError('--file chooses the files itself: it takes no --shard');
  const unknown = files.find((f) => !ALL_PROTOCOL_FILES.includes(f));
  if (unknown !== undefined) throw new UsageError(`--file ${unknown} is not a protocol file (campaign/mutation/protocol-files.ts lists them)`);
  return { shard: parsed.shard === undefined ? { index: 1, count: 1 } : parseShard(parsed.shard), files, seeds, out: path.resolve(parsed.out ?? 'out/mutation'), merge: parsed.merge === true, dryRun: parsed['dry-run'] === true };
}

async function runShard(o: Options): Promise<MutationSummary> {
  const files = chosenFiles(o);
  const digest = protocolDigest(ROOT);
  if (files.length === 0) return summarize([], digest, files, o.seeds, EQUIVALENT_MUTANTS, ROOT);
  // The test processes StrykerJS starts inherit the environment: the seed count travels this way.
  process.env['SWEEP_SEEDS'] = String(o.seeds);
  const sandbox = path.join(tmpdir(), `testbed-mutation-${process.pid}`);
  const { Stryker } = await import('@stryker-mutator/core');
  const stryker = new Stryker({
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
    mutate: [...files],
    ignorePatterns: ['out', 'dist', '.git'],
    reporters: ['progress-append-only'],
    tempDirName: sandbox,
    cleanTempDir: true,
    // A static mutant (a module-level constant) needs every test rerun with a fresh module cache.
    ignoreStatic: true,
  });
  // An interrupted run leaves no sandbox behind (a copy of the project per run).
  const interrupted = (code: number) => (): void => {
    rmSync(sandbox, { recursive: true, force: true });
    process.exit(code);
  };
  process.once('SIGINT', interrupted(130)).once('SIGTERM', interrupted(143));
  try {
    const results = await stryker.runMutationTest();
    return summarize(results, digest, files, o.seeds, EQUIVALENT_MUTANTS, ROOT);
  } finally {
    rmSync(sandbox, { recursive: true, force: true });
  }
}

function chosenFiles(o: Options): ReadonlyArray<string> {
  return o.files.length > 0 ? [...new Set(o.files)].sort() : filesOfShard(ROOT, o.shard);
}

function mergeShards(out: string): MutationSummary {
  const names = readdirSync(out, { withFileTypes: true }).filter((e) => e.isFile() && /^shard-\d+-of-\d+\.json$/.test(e.name)).map((e) => e.name);
  if (names.length === 0) throw new UsageError(`no shard files (shard-<i>-of-<n>.json) in ${out}`);
  const counts = new Set(names.map((name) => name.replace(/^shard-\d+-of-(\d+)\.json$/, '$1')));
  if (counts.size > 1) throw new UsageError(`${out} holds shards of different splits (of ${[...counts].join(', of ')}); keep one split`);
  const count = Number([...counts][0]);
  if (names.length !== count) throw new UsageError(`${out} holds ${names.length} of ${count} shards; run the missing ones first`);
  try {
    return withEquivalents(mergeSummaries(names.sort().map((name) => readShard(path.join(out, name)))), EQUIVALENT_MUTANTS);
  } catch (error) {
    throw new UsageError(`${out}: ${describeError(error)}`);
  }
}

function readShard(file: string): MutationSummary {
  const parsed = parseSummary(readFileSync(file, 'utf8'));
  if ('invalid' in parsed) throw new UsageError(`${file} is ${parsed.invalid}`);
  return parsed;
}

function print(summary: MutationSummary, label: string): void {
  const pct = summary.score === null ? 'nothing' : `${(summary.score * 100).toFixed(1)}%`;
  console.log(`${label}: ${summary.files.length} files, ${summary.killed} killed, ${summary.timedOut} timed out, ${summary.survived} survived, ${summary.noCoverage} not reached, ${summary.equivalent} declared equivalent; ${pct} killed (threshold ${SCORE_THRESHOLD * 100}%) at ${summary.seeds} seeds per scenario`);
  for (const s of summary.survivors.slice(0, 20)) console.log(`  ${s.status === 'NoCoverage' ? 'not reached' : 'survived'}: ${s.file}:${s.line}:${s.column} ${s.mutator} → ${JSON.stringify(s.replacement).slice(0, 80)}`);
  if (summary.survivors.length > 20) console.log(`  … ${summary.survivors.length - 20} more in the file`);
}

async function main(argv: ReadonlyArray<string>): Promise<number> {
  const o = options(argv);
  if (o.dryRun) {
    console.log(chosenFiles(o).join('\n'));
    return EXIT.ok;
  }
  // A merge writes only once its shards are read: bad input leaves nothing behind.
  if (o.merge && !existsSync(o.out)) throw new UsageError(`no such directory: ${o.out}`);
  const summary = o.merge ? mergeShards(o.out) : await runShard(o);
  mkdirSync(o.out, { recursive: true });
  // An unsharded run is its own summary, which the gate report reads; a shard waits for --merge.
  const whole = o.shard.count === 1 && o.files.length === 0;
  const name = o.merge || whole ? 'summary.json' : o.files.length > 0 ? 'files.json' : `shard-${o.shard.index}-of-${o.shard.count}.json`;
  const file = path.join(o.out, name);
  await writeFileAtomic(file, `${JSON.stringify(summary, null, 2)}\n`);
  print(summary, o.merge ? 'protocol mutation' : o.files.length > 0 ? 'protocol mutation, chosen files' : `protocol mutation, shard ${o.shard.index}/${o.shard.count}`);
  console.log(`written: ${path.relative(process.cwd(), file)}`);
  // A shard with no file to mutate has nothing to show and nothing to fail.
  return summary.score === null || summary.score >= SCORE_THRESHOLD ? EXIT.ok : EXIT.violation;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`mutation: ${describeError(error)}`);
    process.exit(error instanceof UsageError ? EXIT.usage : EXIT.undecided);
  },
);
