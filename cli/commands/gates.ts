// `testbed gates` (the main job, `npm start`): sweeps every scenario on the memory store, runs
// each on an embedded PostgreSQL and compares it with the memory store run for run, replays the
// failover and restore scenarios with real faults, hunts every mutant, then computes the gates
// of seed 000 §316 and seed 001 §339 from that evidence alone and writes the report. With a shard
// (`--shard i/n`, or the environment: cli/seeds.ts) it does only its share of that work
// (campaign/shard-plan.ts) and writes a shard file for `testbed merge` instead of the report.

import pc from 'picocolors';
import { GateRun, type GateReporter } from '../../campaign/gates/gate-run.ts';
import { gateWork } from '../../campaign/gates/work.ts';
import { shareOf, WHOLE } from '../../campaign/shard-plan.ts';
import { finishGateRun } from '../gate-output.ts';
import { checkOutDir } from '../out-dir.ts';
import { startProgress } from '../progress.ts';
import { shardFrom } from '../seeds.ts';
import { printShare, writeShard } from './shard-output.ts';
import type { GatesOptions } from './gates-flags.ts';

export async function gatesCommand(options: GatesOptions): Promise<void> {
  const work = gateWork(options);
  const shard = shardFrom(options.shard);
  const share = shareOf(work, shard ?? WHOLE);
  if (options.dryRun) return printShare('gates', work, shard, share, options.json);
  // Before any work: a report that cannot be written is bad input now, not after the whole suite.
  await checkOutDir(options.out);
  const run = new GateRun({ out: options.out, reporter: consoleReporter(options.json === true) });
  const startedAt = new Date().toISOString();
  await run.stages(work, share);
  const input = { startedAt, finishedAt: new Date().toISOString(), ...run.evidence() };
  if (shard !== undefined) return writeShard({ command: 'gates', shard, work, results: input }, options, run.phases.line());
  await finishGateRun(input, options, [run.phases.line()]);
}

const TONES = { heading: pc.bold, note: pc.dim, warning: pc.yellow, failure: pc.red } as const;

/** The run's lines on stderr, styled by tone, and its progress bars; nothing under `--json`. */
function consoleReporter(json: boolean): GateReporter {
  return {
    say: (line, tone) => {
      if (!json) process.stderr.write(`${TONES[tone](line)}\n`);
    },
    progress: (total, label, unit) => startProgress(total, label, !json, unit),
  };
}
