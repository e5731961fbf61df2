// What each seed 001 scenario must show besides passing: the evidence that it exercised its section.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { COORDINATION_SEEDS, seedsWhere, sweepCoordination, type CoordinationSweep } from './coordination-sweep.ts';

export interface CoordinationCase {
  readonly name: string;
  readonly evidence: (sweep: CoordinationSweep) => void;
}

const ALL = COORDINATION_SEEDS;
/** Seeds on which a fault-driven effect must show up at least (a share of the sweep). */
const MANY = Math.floor(COORDINATION_SEEDS / 2);
const MOST = Math.floor((COORDINATION_SEEDS * 9) / 10);

export const FIRST_HALF: ReadonlyArray<CoordinationCase> = [
  {
    name: 'three-node-failover',
    evidence: (s) => {
      // Every seed has a first leader and, after the scripted leader crashes, newer ones.
      expect(seedsWhere(s, (e) => e.leaderChanges >= 3 && e.restarts >= 1 && e.voters === 3)).toBe(ALL);
    },
  },
  {
    name: 'minority-partition',
    evidence: (s) => {
      // The isolated leader keeps running and is fenced by the majority's new epoch (§90, §97).
      expect(seedsWhere(s, (e) => e.leaderChanges >= 2)).toBe(ALL);
      expect(seedsWhere(s, (e) => e.fenced > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
  {
    name: 'quorum-loss',
    evidence: (s) => {
      // Quorum is lost on every seed, and attempts under database leases still write meanwhile (§76).
      expect(seedsWhere(s, (e) => e.quorumLosses >= 1)).toBe(ALL);
      expect(seedsWhere(s, (e) => e.writesDuringQuorumLoss > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
  {
    name: 'stale-leader-epoch',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.fenced > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
  {
    name: 'scheduler-epoch',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.voters === 5 && e.guardRoles.has('scheduler'))).toBe(ALL);
      expect(seedsWhere(s, (e) => e.fenced > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
];

export const SECOND_HALF: ReadonlyArray<CoordinationCase> = [
  {
    name: 'release-coordinator-epoch',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.guardRoles.has('release-coordinator') && !e.guardRoles.has('scheduler'))).toBe(ALL);
      expect(seedsWhere(s, (e) => e.fenced > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
  {
    name: 'deployment-coordinator-epoch',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.guardRoles.has('deployment-coordinator'))).toBe(ALL);
      expect(seedsWhere(s, (e) => e.fenced > 0)).toBeGreaterThanOrEqual(MANY);
    },
  },
  {
    name: 'restart-incarnation',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.restarts >= 1)).toBe(ALL);
    },
  },
  {
    name: 'db-healthy-coordination-lost',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.quorumLosses >= 1)).toBe(ALL);
      // Long attempts leased before the split keep writing during it (§76–§77).
      expect(seedsWhere(s, (e) => e.writesDuringQuorumLoss > 0)).toBeGreaterThanOrEqual(MOST);
    },
  },
  {
    name: 'coordination-healthy-db-lost',
    evidence: (s) => {
      expect(seedsWhere(s, (e) => e.dbCrashes === 1 && e.writesWhileDbDown === 0 && e.quorumLosses === 0)).toBe(ALL);
    },
  },
  {
    name: 'membership-change',
    evidence: (s) => {
      // Two learners join and are promoted, and a removal takes out the node that led (001 §62–§64).
      expect(seedsWhere(s, (e) => (e.membership['add-learner'] ?? 0) === 2 && (e.membership['promote'] ?? 0) >= 1 && (e.membership['remove'] ?? 0) >= 1)).toBe(ALL);
      expect(seedsWhere(s, (e) => (e.membership['promote'] ?? 0) === 2)).toBeGreaterThanOrEqual(MOST);
      // After the leader's own node is removed, the remaining voters elect a new leader (§64, §244).
      expect(seedsWhere(s, (e) => e.leadersAfterLeaderRemoval >= 1)).toBeGreaterThanOrEqual(MOST);
    },
  },
  {
    name: 'standalone-coordination',
    evidence: (s) => {
      // One voter, and always a second epoch: a restart (a new incarnation), or a pause past the
      // step-down bound after which the node elects itself again (001 §165, §326).
      expect(seedsWhere(s, (e) => e.voters === 1 && e.leaderChanges >= 2)).toBe(ALL);
      expect(seedsWhere(s, (e) => e.restarts >= 1)).toBeGreaterThanOrEqual(MOST);
    },
  },
];

/** The test of `cases`: each scenario passes COORDINATION_SEEDS seeds and shows its evidence. */
export function describeCoordination(title: string, cases: ReadonlyArray<CoordinationCase>): void {
  describe(title, () => {
    for (const { name, evidence } of cases) {
      it(`${name} (${loadScenario(name).sources.join(', ')}) holds over ${COORDINATION_SEEDS} seeds`, async () => {
        const sweep = await sweepCoordination(name);
        expect(sweep.failures).toEqual([]);
        evidence(sweep);
      });
    }
  });
}
