// The recipes for sweeps beyond one machine (docs/CLI.md), checked as files: the GitHub Actions matrix
// workflow and the Kubernetes Indexed Job. Each shard command they run is run here as the CLI
// would run it in each matrix cell or pod (with --dry-run), and the shards together must cover the
// whole run's work exactly once; the merge command must be one the CLI accepts, reading the
// directory the shards' files land in.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { shareOf, WHOLE } from '../../campaign/shard-plan.ts';
import { gateWork } from '../../campaign/gates/work.ts';
import { shardFrom } from '../../cli/seeds.ts';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-recipe-');

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Share {
  readonly memorySeeds: number[];
  readonly pgSeeds: number[];
  readonly realFaultScenarios: string[];
  readonly mutants: string[];
  readonly suites: boolean;
  readonly checkPostgres: boolean;
}

type Planned = { shard: { index: number; count: number } | null; share: Share };

/** Runs `npx testbed <args>` as the CLI, with --dry-run: what that shard would do. */
async function cliShare(args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Planned> {
  expect(args.slice(0, 2)).toEqual(['npx', 'testbed']);
  const result = await runCliAsync([...args.slice(2), '--dry-run', '--json'], { env });
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  const { shard, share } = JSON.parse(result.stdout) as Planned;
  return { shard, share };
}

/** The same, computed in this process from the command's options (the CLI's defaults for the rest). */
function localShare(args: ReadonlyArray<string>, env: Record<string, string> = {}): Planned {
  const value = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
  const work = gateWork({ seeds: value('--seeds', '200'), pgSeeds: value('--pg-seeds', '5'), postgres: !args.includes('--no-postgres') });
  const shard = shardFrom(args.includes('--shard') ? value('--shard', '') : undefined, env);
  return JSON.parse(JSON.stringify({ shard: shard ?? null, share: shareOf(work, shard ?? WHOLE) }));
}

/**
 * What each command would do: every one computed here, and the first and the whole run also by
 * the CLI itself, which must agree (so the commands are ones the CLI accepts, read as it reads them).
 */
async function sharesOf(commands: ReadonlyArray<{ args: ReadonlyArray<string>; env?: Record<string, string> }>, whole: { args: ReadonlyArray<string>; env?: Record<string, string> }): Promise<{ cells: Planned[]; whole: Planned }> {
  const cells = commands.map((c) => localShare(c.args, c.env));
  const [first, all] = await Promise.all([cliShare(commands[0]!.args, commands[0]!.env), cliShare(whole.args, whole.env)]);
  expect(first).toEqual(cells[0]);
  expect(all).toEqual(localShare(whole.args, whole.env));
  return { cells, whole: all };
}

/** Every piece of the whole run's share done by exactly one shard. */
function expectPartition(shares: ReadonlyArray<Share>, whole: Share): void {
  const all = <T>(pick: (s: Share) => ReadonlyArray<T>) => shares.flatMap(pick).map(String).sort();
  expect(all((s) => s.memorySeeds)).toEqual(whole.memorySeeds.map(String).sort());
  expect(all((s) => s.pgSeeds)).toEqual(whole.pgSeeds.map(String).sort());
  expect(all((s) => s.realFaultScenarios)).toEqual([...whole.realFaultScenarios].sort());
  expect(all((s) => s.mutants)).toEqual([...whole.mutants].sort());
  expect(shares.filter((s) => s.suites)).toHaveLength(1);
  expect(shares.filter((s) => s.checkPostgres)).toHaveLength(whole.checkPostgres ? 1 : 0);
}

/** The merge command is accepted: on an empty directory it gets as far as finding no shard file there. */
async function expectMergeAccepted(args: ReadonlyArray<string>, shardsDir: string): Promise<void> {
  const empty = scratch();
  const result = await runCliAsync(args.slice(2).map((a) => (a === shardsDir ? empty : a)));
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`${empty}: holds no shard file`);
}

const words = (line: string) => line.trim().split(/\s+/);
const option = (args: ReadonlyArray<string>, name: string) => args[args.indexOf(name) + 1];

describe('examples/ci/github-actions-sharded.yml', () => {
  const workflow = parse(read('examples/ci/github-actions-sharded.yml'));
  const shardJob = workflow.jobs.shard;
  const mergeJob = workflow.jobs.merge;
  type Step = { run?: string; uses?: string; with?: Record<string, unknown>; if?: string };

  test('every job sets the run id the merge compares', () => {
    expect(workflow.env.TESTBED_RUN_ID).toBe('${{ github.run_id }}-${{ github.run_attempt }}');
  });

  test('each matrix cell runs one shard, and the cells together run the whole gate suite once', async () => {
    const cells: number[] = shardJob.strategy.matrix.shard;
    expect(cells).toEqual(cells.map((_, i) => i + 1));
    const run = (shardJob.steps as Step[]).find((s) => s.run?.startsWith('npx testbed gates'))!.run!;
    const perCell = cells.map((cell) => words(run.replaceAll('${{ matrix.shard }}', String(cell))));
    for (const [i, args] of perCell.entries()) expect(option(args, '--shard')).toBe(`${i + 1}/${cells.length}`);
    const { cells: shares, whole } = await sharesOf(
      perCell.map((args) => ({ args })),
      { args: perCell[0]!.filter((w, i, all) => w !== '--shard' && all[i - 1] !== '--shard') },
    );
    expect(whole.shard).toBeNull();
    expectPartition(shares.map((s) => s.share), whole.share);
    // What each cell uploads is the shard file it wrote.
    const upload = (shardJob.steps as Step[]).find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(upload.with?.path).toBe(`${option(perCell[0]!, '--out')}/shard-*.json`);
  }, 120_000);

  test('the merge job runs after every cell, merges what they uploaded, and publishes the summary and JUnit', async () => {
    expect(mergeJob.needs).toBe('shard');
    expect(mergeJob.if).toBe('always()');
    const steps = mergeJob.steps as Step[];
    const download = steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
    expect(download.with).toMatchObject({ pattern: 'testbed-shard-*', 'merge-multiple': true });
    const merge = words(steps.find((s) => s.run?.startsWith('npx testbed merge'))!.run!);
    expect(merge[3]).toBe(download.with?.path);
    const out = option(merge, '--out');
    expect(steps.some((s) => s.run === `cat ${out}/gates.md >> "$GITHUB_STEP_SUMMARY"`)).toBe(true);
    expect(steps.find((s) => s.uses?.startsWith('dorny/test-reporter'))?.with).toMatchObject({ path: `${out}/junit.xml`, reporter: 'java-junit' });
    await expectMergeAccepted(merge, String(download.with?.path));
  }, 60_000);
});

describe('examples/k8s/indexed-job.yaml', () => {
  const [gates, merge] = parseAllDocuments(read('examples/k8s/indexed-job.yaml')).map((d) => d.toJS());
  const container = (job: typeof gates) => job.spec.template.spec.containers[0];

  test('each pod of the Indexed Job runs the shard its JOB_COMPLETION_INDEX names; together they run the whole suite once', async () => {
    expect(gates.spec.completionMode).toBe('Indexed');
    const count: number = gates.spec.completions;
    const entries = container(gates).env as Array<{ name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } }>;
    const env = Object.fromEntries(entries.filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
    expect(env.TESTBED_SHARDS).toBe(String(count));
    // The run id is the Job's uid, which every pod of one Job shares.
    expect(entries.find((e) => e.name === 'TESTBED_RUN_ID')?.valueFrom?.fieldRef.fieldPath).toBe("metadata.labels['batch.kubernetes.io/controller-uid']");
    const command: string[] = container(gates).command;
    const { cells: shares, whole } = await sharesOf(
      Array.from({ length: count }, (_, index) => ({ args: command, env: { ...env, JOB_COMPLETION_INDEX: String(index) } })),
      { args: command },
    );
    expect(shares.map((s) => s.shard)).toEqual(Array.from({ length: count }, (_, i) => ({ index: i + 1, count })));
    expectPartition(
      shares.map((s) => s.share),
      whole.share,
    );
  }, 120_000);

  test('the merge Job reads the directory every pod writes to, on the same volume', async () => {
    const shardsDir = option(container(gates).command, '--out')!;
    const args: string[] = container(merge).command;
    expect(args.slice(0, 4)).toEqual(['npx', 'testbed', 'merge', shardsDir]);
    const claim = (job: typeof gates) => job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName;
    expect(claim(merge)).toBe(claim(gates));
    expect(container(merge).volumeMounts[0].mountPath).toBe(container(gates).volumeMounts[0].mountPath);
    await expectMergeAccepted(args, shardsDir);
  }, 60_000);
});
