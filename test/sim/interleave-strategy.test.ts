// The seeded choosers of controlled interleaving (sim/interleave-strategy.ts): PCT of depth d
// drops a running session's priority at most d - 1 times, at scheduling points; depth 1 runs the
// sessions one after another; random walks; the same stream gives the same choices.

import { describe, expect, test } from 'vitest';
import type { Chooser } from '../../adapters/interleaving.ts';
import { chooserFor } from '../../sim/interleave-strategy.ts';
import { streamFor } from '../../sim/prng.ts';

/** Runs sessions of `steps` steps each to their end under `choose`; the schedule taken. */
function schedule(choose: Chooser, sessions: ReadonlyArray<string>, steps: number): string[] {
  const left = new Map(sessions.map((s) => [s, steps]));
  const taken: string[] = [];
  while ([...left.values()].some((n) => n > 0)) {
    const names = sessions.filter((s) => left.get(s)! > 0);
    const name = names[choose(names)]!;
    left.set(name, left.get(name)! - 1);
    taken.push(name);
  }
  return taken;
}

/** How often the schedule switches from a session that could have gone on. */
function preemptions(taken: ReadonlyArray<string>, steps: number): number {
  let count = 0;
  const done = new Map<string, number>();
  for (let i = 0; i < taken.length; i++) {
    done.set(taken[i]!, (done.get(taken[i]!) ?? 0) + 1);
    const next = taken[i + 1];
    if (next !== undefined && next !== taken[i] && done.get(taken[i]!)! < steps) count++;
  }
  return count;
}

const SESSIONS = ['s1', 's2', 's3'];

describe('PCT and random choosers', () => {
  test('PCT of depth 1 runs each session to its end before the next', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const taken = schedule(chooserFor('pct', streamFor(seed, 'pct'), SESSIONS, 5, 1), SESSIONS, 5);
      expect(preemptions(taken, 5)).toBe(0);
    }
  });

  test('PCT of depth d preempts at most d - 1 times, and reaches d - 1 over many seeds', () => {
    for (const depth of [2, 3, 5]) {
      const counts = Array.from({ length: 200 }, (_, seed) => preemptions(schedule(chooserFor('pct', streamFor(seed, 'pct'), SESSIONS, 5, depth), SESSIONS, 5), 5));
      expect(Math.max(...counts)).toBe(depth - 1);
    }
  });

  test('a candidate the chooser was not told of goes last under PCT', () => {
    const choose = chooserFor('pct', streamFor(1, 'pct'), ['s1', 's2'], 4, 1);
    expect(choose(['@clock', 's2'])).toBe(1);
  });

  test('random walks reach every interleaving of two short sessions, and the same stream chooses alike', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 300; seed++) seen.add(schedule(chooserFor('random', streamFor(seed, 'r'), ['s1', 's2'], 2), ['s1', 's2'], 2).join(','));
    expect(seen.size).toBe(6);
    const a = schedule(chooserFor('pct', streamFor(7, 'x'), SESSIONS, 5, 3), SESSIONS, 5);
    const b = schedule(chooserFor('pct', streamFor(7, 'x'), SESSIONS, 5, 3), SESSIONS, 5);
    expect(a).toEqual(b);
  });
});
