// Seeded pseudo-random streams, one per component, derived from the root seed by name
// (`${seed}/${name}`): adding a component never shifts another component's draws.

import seedrandom from 'seedrandom';
import { strict as assert } from 'node:assert';

export interface Stream {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number;
  /** True with probability pct/100 (pct an integer 0..100). */
  chance(pct: number): boolean;
  pick<T>(items: ReadonlyArray<T>): T;
}

export function streamFor(seed: number, name: string): Stream {
  assert.ok(Number.isSafeInteger(seed), 'seed must be a safe integer');
  assert.ok(name.length > 0, 'stream name must not be empty');
  const rng = seedrandom(`${seed}/${name}`);
  return {
    next: () => rng.quick(),
    int(lo, hi) {
      if (hi <= lo) return lo;
      return lo + Math.floor(rng.quick() * (hi - lo + 1));
    },
    chance(pct) {
      if (pct <= 0) return false;
      if (pct >= 100) return true;
      return Math.floor(rng.quick() * 100) < pct;
    },
    pick<T>(items: ReadonlyArray<T>): T {
      assert.ok(items.length > 0, 'cannot pick from an empty list');
      return items[Math.floor(rng.quick() * items.length)]!;
    },
  };
}

/** Lazily created named streams for one run. */
export class Streams {
  private readonly byName = new Map<string, Stream>();
  constructor(readonly seed: number) {}
  get(name: string): Stream {
    let s = this.byName.get(name);
    if (s === undefined) {
      s = streamFor(this.seed, name);
      this.byName.set(name, s);
    }
    return s;
  }
}
