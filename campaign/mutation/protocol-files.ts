// The protocol code the mutation run (`npm run mutation`) mutates: what the simulated controllers,
// workloads, scheduler, coordination service and Raft decide (the client protocol of seed 000
// §59–§65, the coordination of seed 001).
// The simulator's machinery (event queue, network, history recorder), the stores and the
// checkers are not in it: a mutant there tests the test, not the protocol.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Shard } from '../shard-plan.ts';

/** Files by part, paths from the repository root. */
export const PROTOCOL_FILES: Readonly<Record<'controller' | 'workloads' | 'scheduler' | 'coordination' | 'raft', ReadonlyArray<string>>> = {
  controller: ['sim/controller.ts', 'sim/lease-protocol.ts', 'sim/effect-protocol.ts', 'sim/handler-run.ts', 'sim/handler-work.ts'],
  workloads: [
    'sim/workloads.ts', 'sim/group-workload.ts', 'sim/force-release-workload.ts', 'sim/job-attempt-workload.ts', 'sim/reservation-saga-workload.ts',
    'sim/role-takeover-workload.ts', 'sim/verified-handoff-workload.ts', 'sim/misbehaving-client.ts', 'sim/redelivery.ts',
  ],
  scheduler: ['sim/coordination/scheduler.ts', 'sim/coordination/jobs.ts'],
  coordination: [
    'sim/coordination/service.ts', 'sim/coordination/cluster.ts', 'sim/coordination/cluster-operations.ts', 'sim/coordination/agents.ts',
    'sim/coordination/peer-trust.ts', 'sim/coordination/membership-requests.ts', 'sim/coordination/maintenance-desk.ts',
    'sim/coordination/orchestrator-lease.ts', 'sim/coordination/artifact-store.ts', 'sim/coordination/regions.ts', 'sim/coordination/public-api.ts',
  ],
  raft: ['sim/raft/raft-node.ts', 'sim/raft/raft-service.ts', 'sim/raft/raft-protocol.ts', 'sim/raft/raft-membership.ts', 'sim/raft/raft-agenda.ts'],
};

export const ALL_PROTOCOL_FILES: ReadonlyArray<string> = Object.values(PROTOCOL_FILES).flat();

/**
 * The files of one shard: the largest file first to the shard with the least code so far, so
 * shards take about equally long (mutants per file follow its size). Every shard computes the
 * same split; the n shards together mutate every file once.
 */
export function filesOfShard(root: string, shard: Shard, files: ReadonlyArray<string> = ALL_PROTOCOL_FILES): ReadonlyArray<string> {
  const sized = files.map((file) => ({ file, size: statSync(path.join(root, file)).size })).sort((a, b) => b.size - a.size || a.file.localeCompare(b.file));
  const load = new Array<number>(shard.count).fill(0);
  const mine: string[] = [];
  for (const { file, size } of sized) {
    const least = load.indexOf(Math.min(...load));
    load[least]! += size;
    if (least === shard.index - 1) mine.push(file);
  }
  return mine.sort();
}

/**
 * What decides a mutation run's result besides the mutated code: the checkers and the run's own
 * findings that judge, the scenarios that run, and the test that runs them. A summary is of the
 * code at hand only when all of these are as they were.
 */
export const JUDGING_PATHS: ReadonlyArray<string> = [
  'model/checkers',
  // The run's own findings (port contract, shadow model, the controllers' progress) and where they join the verdict.
  'sim/port-contract.ts',
  'sim/shadow-model.ts',
  'sim/progress-watch.ts',
  'sim/run.ts',
  'scenarios',
  // The shapes the simulator holds its records to: a malformed one ends the run.
  'model/record-shapes.ts',
  'sim/history-recorder.ts',
  // The catalogue of mutants, its hunt and pinned catches: the mutation test's other half.
  'mutants',
  'campaign/mutant-run.ts',
  'campaign/shrink.ts',
  'test/mutants/pinned-catches.ts',
  'test/mutation',
  'test/scenarios/sweep.ts',
];

/**
 * A digest of the path and text of every protocol file and every file under JUDGING_PATHS: a
 * summary made of other code, or judged by other checkers or scenarios, is stale, and the gate
 * report does not count it.
 */
export function protocolDigest(root: string, files: ReadonlyArray<string> = ALL_PROTOCOL_FILES): string {
  const hash = createHash('sha256');
  const judging = JUDGING_PATHS.flatMap((p) => filesUnder(root, p));
  for (const file of [...new Set([...files, ...judging])].sort()) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function filesUnder(root: string, relative: string): string[] {
  const full = path.join(root, relative);
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => filesUnder(root, path.posix.join(relative, e.name)));
}
