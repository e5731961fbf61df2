// The race stage's exploration (campaign/race/schedule-tree.ts) on a system with no server: two or
// three sessions, each a list of steps named by their SQL, offered to the tree as the statement
// gate offers them. The tree must reach every order of dependent steps exactly as a full
// enumeration does, skip only orders that swap independent steps, and keep to its preemption bound.

import { beforeAll, describe, expect, test } from 'vitest';
import { classify, independent, loadClassifier } from '../../campaign/race/independence.ts';
import { ScheduleTree } from '../../campaign/race/schedule-tree.ts';

beforeAll(() => loadClassifier());

type Program = ReadonlyArray<string>;

/** Runs every path of the tree over `programs`; returns the schedules (step labels `s1:0`). */
function explore(programs: ReadonlyArray<Program>, bound: number | null = null): { schedules: string[][]; tree: ScheduleTree } {
  const tree = new ScheduleTree(bound);
  const schedules: string[][] = [];
  do {
    tree.startRun();
    const next = programs.map(() => 0);
    const order: string[] = [];
    for (;;) {
      const live = programs.map((p, i) => i).filter((i) => next[i]! < programs[i]!.length);
      if (live.length === 0) break;
      const names = live.map((i) => `s${i + 1}`);
      const chosen = live[tree.choose(names, live.map((i) => programs[i]![next[i]!]!))]!;
      order.push(`s${chosen + 1}:${next[chosen]}`);
      next[chosen]!++;
    }
    schedules.push(order);
  } while (tree.advance());
  return { schedules, tree };
}

/** The order of every pair of dependent steps of different sessions: equal for schedules that only swap independent steps. */
function traceOf(schedule: ReadonlyArray<string>, programs: ReadonlyArray<Program>): string {
  const sql = (label: string) => programs[Number(label.slice(1, label.indexOf(':'))) - 1]![Number(label.slice(label.indexOf(':') + 1))]!;
  const pairs: string[] = [];
  schedule.forEach((a, i) =>
    schedule.slice(i + 1).forEach((b) => {
      if (a.split(':')[0] !== b.split(':')[0] && !independent(classify(sql(a)), classify(sql(b)))) pairs.push(`${a}<${b}`);
    }),
  );
  return pairs.sort().join(' ');
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

describe('statements are classified by what they can change', () => {
  test.each([
    ['BEGIN ISOLATION LEVEL READ COMMITTED', 'local'],
    ["SET LOCAL lock_timeout = '1s'", 'local'],
    ['SELECT holder FROM lease WHERE scope = $1', 'read'],
    ['BEGIN; SELECT 1', 'read'],
    ['SELECT holder FROM lease WHERE scope = $1 FOR UPDATE', 'other'],
    ['SELECT testbed_acquire($1)', 'other'],
    ['SELECT coalesce($1::bigint, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS now', 'read'],
    ['BEGIN; SELECT pg_advisory_xact_lock_shared(1, hashtext(current_schema()))', 'read'],
    ['BEGIN; SELECT pg_advisory_xact_lock(1, 2)', 'other'],
    ["SELECT nextval('s')", 'other'],
    ['WITH d AS (DELETE FROM lease RETURNING 1) SELECT * FROM d', 'other'],
    ['UPDATE lease SET holder = $1', 'other'],
    ['COMMIT', 'other'],
    ['not sql at all', 'other'],
  ])('%s is %s', (sql, expected) => {
    expect(classify(sql)).toBe(expected);
  });
});

describe('exploration', () => {
  test('with every step dependent, every interleaving runs exactly once', () => {
    const programs = [['UPDATE a SET x = 1', 'UPDATE a SET x = 2', 'COMMIT'], ['UPDATE a SET x = 3', 'COMMIT']];
    const { schedules, tree } = explore(programs);
    expect(schedules.length).toBe(binomial(5, 2));
    expect(new Set(schedules.map((s) => s.join(' '))).size).toBe(schedules.length);
    expect(tree.counts().pruned).toBe(0);
  });

  test('three sessions: every interleaving', () => {
    const programs = [['UPDATE a SET x = 1', 'COMMIT'], ['UPDATE a SET x = 2', 'COMMIT'], ['UPDATE a SET x = 3']];
    const { schedules } = explore(programs);
    expect(schedules.length).toBe(5 * 4 * 3 * 2 / 2 / 2); // 5! / (2! 2! 1!)
  });

  test('independent steps are not reordered, and every order of the dependent ones is still reached', () => {
    const programs = [['BEGIN', 'SELECT x FROM a', 'UPDATE a SET x = 1', 'COMMIT'], ['BEGIN', 'SELECT x FROM a', 'UPDATE a SET x = 2', 'COMMIT']];
    const full = explore(programs.map((p) => p.map(() => 'SELECT f()')));
    const reduced = explore(programs);
    expect(full.schedules.length).toBe(binomial(8, 4));
    expect(reduced.schedules.length).toBeLessThan(full.schedules.length);
    expect(reduced.tree.counts().pruned).toBeGreaterThan(0);
    const everyTrace = new Set(reduced.schedules.map((s) => traceOf(s, programs)));
    // Every distinct order of dependent steps among all 70 interleavings is reached by the reduced exploration.
    const allOrders = new Set<string>();
    for (const s of interleavings(programs)) allOrders.add(traceOf(s, programs));
    expect(everyTrace).toEqual(allOrders);
  });

  test('under a preemption bound every schedule within the bound is reached (no sleep sets there)', () => {
    const programs = [['UPDATE a SET x = 1', 'UPDATE a SET x = 2'], ['BEGIN', 'BEGIN', 'UPDATE a SET x = 3'], ['UPDATE a SET x = 4', 'COMMIT']];
    for (const bound of [0, 1]) {
      const reached = new Set(explore(programs, bound).schedules.map((s) => s.join(' ')));
      const within = interleavings(programs).filter((s) => preemptions(s, programs) <= bound).map((s) => s.join(' '));
      expect(within.filter((s) => !reached.has(s)), `bound ${bound}`).toEqual([]);
    }
  });

  test('a preemption bound of 0 runs each session to its end before another starts', () => {
    const programs = [['UPDATE a SET x = 1', 'UPDATE a SET x = 2'], ['UPDATE a SET x = 3', 'UPDATE a SET x = 4']];
    const { schedules, tree } = explore(programs, 0);
    expect(schedules.map((s) => s.join(' '))).toEqual(['s1:0 s1:1 s2:0 s2:1', 's2:0 s2:1 s1:0 s1:1']);
    expect(tree.counts().beyondBound).toBeGreaterThan(0);
    expect(explore(programs, 1).schedules.length).toBeGreaterThan(2);
  });
});

/** Every interleaving of the programs' steps, by plain enumeration. */
function interleavings(programs: ReadonlyArray<Program>): string[][] {
  const out: string[][] = [];
  const walk = (next: number[], order: string[]): void => {
    const live = programs.map((_, i) => i).filter((i) => next[i]! < programs[i]!.length);
    if (live.length === 0) return void out.push(order);
    for (const i of live) walk(next.map((n, j) => (j === i ? n + 1 : n)), [...order, `s${i + 1}:${next[i]}`]);
  };
  walk(programs.map(() => 0), []);
  return out;
}

/** Switches away from a session that had steps left. */
function preemptions(schedule: ReadonlyArray<string>, programs: ReadonlyArray<Program>): number {
  const done = programs.map(() => 0);
  let count = 0;
  let previous = -1;
  for (const step of schedule) {
    const session = Number(step.slice(1, step.indexOf(':'))) - 1;
    if (previous >= 0 && session !== previous && done[previous]! < programs[previous]!.length) count++;
    done[session]!++;
    previous = session;
  }
  return count;
}
