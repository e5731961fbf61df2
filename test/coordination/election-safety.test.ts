// seed 001 §89, §283, §340: election safety — over any schedule of elections, heartbeats, partitions, pauses and restarts, each term has at most one leader and the coordination epoch only rises.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { oneLeaderPerTerm } from '../../model/checkers/one-leader-per-term.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { Cluster, type Links } from '../../sim/coordination/cluster.ts';
import { runScenario } from '../../sim/run.ts';

type Action =
  | { readonly kind: 'elect' | 'heartbeat' | 'restart' | 'pause'; readonly node: number }
  | { readonly kind: 'cut' | 'heal'; readonly a: number; readonly b: number };

const action = (voters: number): fc.Arbitrary<Action> => {
  const node = fc.integer({ min: 0, max: voters - 1 });
  return fc.oneof(
    fc.record({ kind: fc.constantFrom('elect' as const, 'heartbeat' as const, 'restart' as const, 'pause' as const), node }),
    fc.record({ kind: fc.constantFrom('cut' as const, 'heal' as const), a: node, b: node }),
  );
};

function play(voters: number, actions: ReadonlyArray<Action>): { leaders: Map<number, string>; epochs: number[] } {
  const names = Array.from({ length: voters }, (_, i) => `c${i + 1}`);
  const cluster = new Cluster(names, ['scheduler']);
  const cut = new Set<string>();
  const paused = new Set<string>();
  const links: Links = {
    running: (n) => !paused.has(n),
    connected: (a, b) => !paused.has(a) && !paused.has(b) && !cut.has(`${a}|${b}`) && !cut.has(`${b}|${a}`),
  };
  const leaders = new Map<number, string>();
  const epochs: number[] = [];
  actions.forEach((step, now) => {
    if (!('node' in step)) {
      const key = `${names[step.a]}|${names[step.b]}`;
      if (step.kind === 'cut') cut.add(key);
      else cut.delete(key);
      return;
    }
    const voter = cluster.voters[step.node]!;
    if (step.kind === 'pause') {
      if (paused.has(voter.name)) paused.delete(voter.name);
      else paused.add(voter.name);
      return;
    }
    if (paused.has(voter.name)) return;
    if (step.kind === 'restart') cluster.restart(voter, now);
    if (step.kind === 'heartbeat' && voter.role === 'leader') {
      const round = cluster.heartbeat(voter, now, links);
      if (round.higherTerm !== null) cluster.learnTerm(voter, round.higherTerm);
    }
    if (step.kind === 'elect' && voter.role !== 'leader') {
      const result = cluster.elect(voter, now, links);
      if (result.kind !== 'Elected') return;
      expect(leaders.has(result.term), `term ${result.term} elected twice`).toBe(false);
      leaders.set(result.term, result.leader);
      epochs.push(result.epoch);
    }
  });
  return { leaders, epochs };
}

describe('abstract consensus', () => {
  for (const voters of [3, 5]) {
    test.prop([fc.array(action(voters), { minLength: 1, maxLength: 120 })], { numRuns: 300 })(
      `${voters} voters: at most one leader per term and strictly rising epochs under any schedule`,
      (actions) => {
        const { epochs } = play(voters, actions);
        for (let i = 1; i < epochs.length; i++) expect(epochs[i]!).toBeGreaterThan(epochs[i - 1]!);
      },
    );
  }

  test.prop([fc.array(action(3), { maxLength: 60 })], { numRuns: 100 })('an isolated minority never elects a leader', (actions) => {
    // c1 is cut off from c2 and c3 for the whole schedule: no term is won by c1.
    const isolated: Action[] = [{ kind: 'cut', a: 0, b: 1 }, { kind: 'cut', a: 0, b: 2 }, ...actions.filter((a) => a.kind !== 'heal')];
    const { leaders } = play(3, isolated);
    expect([...leaders.values()].some((leader) => leader.startsWith('c1#'))).toBe(false);
  });

  for (const name of ['scheduler-epoch', 'minority-partition']) {
    test.prop([fc.integer({ min: 1, max: 1_000_000 })], { numRuns: 25 })(`${name}: over simulator seeds, each term has one majority-elected leader and epochs rise`, async (seed) => {
      const { history } = await runScenario({ scenario: loadScenario(name), seed, store: { name: 'memory', factory: createMemoryStore } });
      expect(history.some((e) => e.type === 'fault' && e.f === 'leader-change')).toBe(true);
      expect(oneLeaderPerTerm(history)).toEqual({ valid: true, violations: [] });
    });
  }
});
