// What a shard of `gates` or `mutants` prints and writes: with `--dry-run`, its share of the work
// and nothing else; after a run, its shard file in `--out`, with the line that merges the set.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import type { GateWork, Shard, ShardShare } from '../../campaign/shard-plan.ts';
import type { GateRunInput } from '../../reports/index.ts';
import { saveShardFile, SHARD_FORMAT, shardFileName } from '../../reports/shard-file.ts';
import { printJson } from '../format.ts';
import { packageVersion } from '../version.ts';

const span = (seeds: ReadonlyArray<number>) =>
  seeds.length === 0 ? 'none' : seeds.length === 1 ? `seed ${seeds[0]}` : `${seeds.length} seeds (${seeds[0]}, ${seeds[1]}, … ${seeds.at(-1)})`;

/** `--dry-run`: the shard's share of the run, computed exactly as the run would, and nothing run. */
export function printShare(command: 'gates' | 'mutants', work: GateWork, shard: Shard | undefined, share: ShardShare, json?: boolean): void {
  const which = shard === undefined ? 'the whole run' : `shard ${shard.index}/${shard.count}`;
  if (json) {
    printJson({ command, shard: shard ?? null, work, share });
    return;
  }
  const lines =
    command === 'mutants'
      ? [`mutants: ${share.mutants.length} of ${work.mutants.length}: ${share.mutants.join(', ') || 'none'}`]
      : [
          `memory: ${work.scenarios.length} scenarios x ${span(share.memorySeeds)} of 1..${work.seeds}`,
          `postgres: ${work.postgres ? `${work.scenarios.length} scenarios x ${span(share.pgSeeds)} of 1..${work.pgSeeds}` : 'off'}`,
          `real faults: ${share.realFaultScenarios.join(', ') || 'none'}`,
          `test suites: ${share.suites ? 'yes' : 'no'}; PostgreSQL against the model: ${share.checkPostgres ? 'yes' : 'no'}`,
          `mutants: ${share.mutants.length} of ${work.mutants.length}: ${share.mutants.join(', ') || 'none'}`,
        ];
  process.stdout.write(`${command}, ${which} (dry run: nothing runs)\n${lines.map((l) => `  ${l}\n`).join('')}`);
}

export interface ShardRun {
  readonly command: 'gates' | 'mutants';
  readonly shard: Shard;
  readonly work: GateWork;
  readonly results: GateRunInput;
}

/**
 * Writes the shard file. A shard's exit code says only that its share ran and was recorded (0);
 * the verdict is the merge's, because no shard alone holds all of any gate's evidence.
 */
export async function writeShard(run: ShardRun, options: { readonly out: string; readonly json?: boolean }, footer?: string): Promise<void> {
  const file = path.join(options.out, shardFileName(run.shard));
  await mkdir(options.out, { recursive: true });
  const runId = process.env.TESTBED_RUN_ID;
  await saveShardFile({ format: SHARD_FORMAT, testbed: packageVersion(), ...(runId === undefined || runId === '' ? {} : { run: runId }), ...run }, file);
  const failing = run.results.scenarios.filter((e) => e.failures > 0 && e.expect === 'pass');
  const missed = run.results.mutants.filter((m) => !m.caught && m.check?.caught !== true);
  if (options.json) {
    printJson({
      shard: run.shard,
      file,
      seedRuns: run.results.scenarios.reduce((n, e) => n + e.seedsRun, 0),
      failingSweeps: failing.map((e) => ({ scenario: e.scenario, adapter: e.adapter, faults: e.faults, failures: e.failures, replay: e.firstFailure?.replay ?? null })),
      mutants: run.results.mutants.length,
      mutantsMissed: missed.map((m) => m.name),
    });
    return;
  }
  for (const e of failing) process.stdout.write(`${pc.red('failing')} ${e.scenario} on ${e.adapter}: ${e.failures} of ${e.seedsRun} seeds; replay: ${e.firstFailure?.replay ?? '?'}\n`);
  for (const m of missed) process.stdout.write(`${pc.red('missed')} mutant ${m.name} in ${m.seedsTried} seeds\n`);
  if (footer !== undefined) process.stdout.write(`${footer}\n`);
  process.stdout.write(`shard ${run.shard.index}/${run.shard.count} written: ${file}\n`);
  process.stdout.write(pc.dim(`when every shard has run: npx testbed merge <the --out directories of all ${run.shard.count} shards> --out <dir>\n`));
}
