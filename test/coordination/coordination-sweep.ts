// Shared by the coordination scenario sweeps: runs a scenario over seeds with the memory store and
// counts what the coordination layer did, so each scenario can show it exercised its section.
import createMemoryStore from '../../adapters/memory.ts';
import type { HistoryEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';

export const COORDINATION_SEEDS = 200;

export interface SeedEvidence {
  readonly seed: number;
  readonly leaderChanges: number;
  readonly fenced: number;
  readonly quorumLosses: number;
  readonly restarts: number;
  readonly guardRoles: ReadonlySet<string>;
  readonly voters: number;
  /** Attempt writes (Mutate Accepted) that completed while quorum was lost. */
  readonly writesDuringQuorumLoss: number;
  readonly dbCrashes: number;
  /** Business writes that landed while the database was down (there must be none). */
  readonly writesWhileDbDown: number;
  /** Committed membership changes (the bootstrap record not counted), by kind. */
  readonly membership: Readonly<Record<string, number>>;
  /** Leaders elected after a removal that took the leader's node out. */
  readonly leadersAfterLeaderRemoval: number;
}

export interface CoordinationSweep {
  readonly failures: ReadonlyArray<string>;
  readonly evidence: ReadonlyArray<SeedEvidence>;
}

function kindOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? ((value as { kind?: unknown }).kind as string | undefined) : undefined;
}

function evidenceOf(seed: number, history: ReadonlyArray<HistoryEvent>): SeedEvidence {
  // What the history shows as counts, all starting at none.
  const counts = { leaderChanges: 0, fenced: 0, quorumLosses: 0, restarts: 0, writesDuringQuorumLoss: 0, dbCrashes: 0, writesWhileDbDown: 0, leadersAfterLeaderRemoval: 0 };
  let voters = 0;
  let lost = false;
  let dbDown = false;
  const guardRoles = new Set<string>();
  const membership: Record<string, number> = {};
  let leaderNode: string | null = null;
  let leaderRemoved = false;
  for (const event of history) {
    if (event.type === 'fault') {
      if (event.f === 'leader-change') {
        counts.leaderChanges++;
        voters = event.value['voters'] as number;
        leaderNode = (event.value['leader'] as string).split('#')[0]!;
        if (leaderRemoved) counts.leadersAfterLeaderRemoval++;
        leaderRemoved = false;
      }
      if (event.f === 'membership-change' && event.value['change'] !== 'bootstrap') {
        const change = event.value['change'] as string;
        membership[change] = (membership[change] ?? 0) + 1;
        if (change === 'remove' && event.value['node'] === leaderNode) leaderRemoved = true;
      }
      if (event.f === 'quorum-loss') {
        counts.quorumLosses++;
        lost = true;
      }
      if (event.f === 'quorum-restored') lost = false;
      if (event.f === 'restart') counts.restarts++;
      if (event.f === 'db-crash') {
        counts.dbCrashes++;
        dbDown = true;
      }
      if (event.f === 'db-restart') dbDown = false;
      continue;
    }
    if (dbDown && event.type === 'truth' && event.f === 'mutation-accepted') counts.writesWhileDbDown++;
    if (event.type === 'invoke') {
      const guard = (event.value as { guard?: { role: string } }).guard;
      if (guard !== undefined) guardRoles.add(guard.role);
    }
    if (event.type === 'ok' && kindOf(event.value) === 'Fenced') counts.fenced++;
    if (lost && event.type === 'ok' && event.f === 'Mutate' && kindOf(event.value) === 'Accepted') counts.writesDuringQuorumLoss++;
  }
  return { seed, ...counts, guardRoles, voters, membership };
}

/** The runs of a scenario on the memory store, seed 1 to `seeds`, one at a time. */
export async function* memoryRuns(name: string, seeds: number): AsyncGenerator<SimRunResult> {
  const scenario = loadScenario(name);
  for (let seed = 1; seed <= seeds; seed++) yield await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore } });
}

export async function sweepCoordination(name: string, seeds = COORDINATION_SEEDS): Promise<CoordinationSweep> {
  const failures: string[] = [];
  const evidence: SeedEvidence[] = [];
  for await (const result of memoryRuns(name, seeds)) {
    if (result.valid !== true) failures.push(`${result.replay}: ${result.violations[0]?.invariant}: ${result.violations[0]?.message}`);
    evidence.push(evidenceOf(result.seed, result.history));
  }
  return { failures, evidence };
}

/** Seeds (of the sweep) on which `test` holds. */
export function seedsWhere(sweep: CoordinationSweep, test: (e: SeedEvidence) => boolean): number {
  return sweep.evidence.filter(test).length;
}
