// What each seed 001 scenario must show besides passing: the evidence that it exercised its section.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { COORDINATION_SEEDS, seedsWhere, sweepCoordination, type SeedEvidence } from './coordination-sweep.ts';

type Seen = (e: SeedEvidence) => boolean;

/** A scenario and what its seeds must show; a fault-driven effect need show up on only a share of them. */
export interface CoordinationCase {
  readonly name: string;
  /** What every seed shows. */
  readonly every?: Seen;
  /** What at least half of the seeds show. */
  readonly many?: Seen;
  /** What at least nine seeds in ten show, each. */
  readonly most?: ReadonlyArray<Seen>;
}

const ALL = COORDINATION_SEEDS;
const MANY = Math.floor(COORDINATION_SEEDS / 2);
const MOST = Math.floor((COORDINATION_SEEDS * 9) / 10);

export const FIRST_HALF: ReadonlyArray<CoordinationCase> = [
  // Every seed has a first leader and, after the scripted leader crashes, newer ones.
  { name: 'three-node-failover', every: (e) => e.leaderChanges >= 3 && e.restarts >= 1 && e.voters === 3 },
  // The isolated leader keeps running and is fenced by the majority's new epoch (§90, §97).
  { name: 'minority-partition', every: (e) => e.leaderChanges >= 2, many: (e) => e.fenced > 0 },
  // Quorum is lost on every seed, and attempts under database leases still write meanwhile (§76).
  { name: 'quorum-loss', every: (e) => e.quorumLosses >= 1, many: (e) => e.writesDuringQuorumLoss > 0 },
  { name: 'stale-leader-epoch', many: (e) => e.fenced > 0 },
  { name: 'scheduler-epoch', every: (e) => e.voters === 5 && e.guardRoles.has('scheduler'), many: (e) => e.fenced > 0 },
];

export const SECOND_HALF: ReadonlyArray<CoordinationCase> = [
  { name: 'release-coordinator-epoch', every: (e) => e.guardRoles.has('release-coordinator') && !e.guardRoles.has('scheduler'), many: (e) => e.fenced > 0 },
  { name: 'deployment-coordinator-epoch', every: (e) => e.guardRoles.has('deployment-coordinator'), many: (e) => e.fenced > 0 },
  { name: 'restart-incarnation', every: (e) => e.restarts >= 1 },
  // Long attempts leased before the split keep writing during it (§76–§77).
  { name: 'db-healthy-coordination-lost', every: (e) => e.quorumLosses >= 1, most: [(e) => e.writesDuringQuorumLoss > 0] },
  { name: 'coordination-healthy-db-lost', every: (e) => e.dbCrashes === 1 && e.writesWhileDbDown === 0 && e.quorumLosses === 0 },
  {
    name: 'membership-change',
    // Two learners join and are promoted, and a removal takes out the node that led (001 §62–§64).
    every: (e) => (e.membership['add-learner'] ?? 0) === 2 && (e.membership['promote'] ?? 0) >= 1 && (e.membership['remove'] ?? 0) >= 1,
    most: [
      (e) => (e.membership['promote'] ?? 0) === 2,
      // After the leader's own node is removed, the remaining voters elect a new leader (§64, §244).
      (e) => e.leadersAfterLeaderRemoval >= 1,
    ],
  },
  // One voter, and always a second epoch: a restart (a new incarnation), or a pause past the
  // step-down bound after which the node elects itself again (001 §165, §326).
  { name: 'standalone-coordination', every: (e) => e.voters === 1 && e.leaderChanges >= 2, most: [(e) => e.restarts >= 1] },
];

/** The test of `cases`: each scenario passes COORDINATION_SEEDS seeds and shows its evidence. */
export function describeCoordination(title: string, cases: ReadonlyArray<CoordinationCase>): void {
  describe(title, () => {
    for (const { name, every, many, most } of cases) {
      it(`${name} (${loadScenario(name).sources.join(', ')}) holds over ${COORDINATION_SEEDS} seeds`, async () => {
        const sweep = await sweepCoordination(name);
        expect(sweep.failures).toEqual([]);
        if (every) expect(seedsWhere(sweep, every), 'seeds that must all show it').toBe(ALL);
        if (many) expect(seedsWhere(sweep, many), 'seeds of which half must show it').toBeGreaterThanOrEqual(MANY);
        for (const seen of most ?? []) expect(seedsWhere(sweep, seen), 'seeds of which nine in ten must show it').toBeGreaterThanOrEqual(MOST);
      });
    }
  });
}
