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

/**
 * A 32-bit integer hash with good avalanche (Wellons' "lowbias32"): the building block of draws
 * that are keyed by what they are for rather than by their position in a stream.
 */
export function mix32(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a over the UTF-16 code units of `text`, finished with `mix32`. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** A float in [0, 1) from slot `slot` of the keyed draw `key`. */
export function unitOf(key: number, slot: number): number {
  return mix32(key + Math.imul(slot, 0x9e3779b9)) / 4_294_967_296;
}
