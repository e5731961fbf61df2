// docs/ARCHITECTURE.md "Time and determinism" and "Shrinking and replay": a message's delay is keyed by its link and its number on that link, so traffic on other links never shifts it; keyed draws are uniform enough to stand in for a stream.
import { describe, expect, it } from 'vitest';
import { faultOptions } from '../../faults/knobs.ts';
import { Network } from '../../sim/network.ts';
import { hashString, mix32, unitOf } from '../../sim/prng.ts';

const options = faultOptions({ networkDelayMsMin: 1, networkDelayMsMax: 60, holdProbabilityPct: 20, holdMsMax: 200, messageLossPct: 10 });

describe('keyed draws', () => {
  it('gives a link the same delays whatever other links carry in between', () => {
    const quiet = new Network(options, 9);
    const alone = Array.from({ length: 40 }, () => quiet.transit('c1', 'db', true));
    const busy = new Network(options, 9);
    const crowded: number[] = [];
    for (let i = 0; i < 40; i++) {
      for (let k = 0; k < i % 4; k++) busy.transit('c2', 'db', true);
      busy.transit('db', 'c1', true);
      crowded.push(busy.transit('c1', 'db', true));
    }
    expect(crowded).toEqual(alone);
    expect(new Set(alone).size).toBeGreaterThan(10);
    expect(alone).toContain(-1);
  });

  it('differs between seeds and between links', () => {
    const a = new Network(options, 1);
    const b = new Network(options, 2);
    const seq = (n: Network, from: string) => Array.from({ length: 30 }, () => n.transit(from, 'db', true));
    expect(seq(a, 'c1')).not.toEqual(seq(b, 'c1'));
    expect(seq(new Network(options, 1), 'c1')).not.toEqual(seq(new Network(options, 1), 'c2'));
  });

  it('draws floats in [0, 1) whose mean and spread look uniform', () => {
    const key = mix32(hashString('7/probe'));
    const draws = Array.from({ length: 20_000 }, (_, i) => unitOf(mix32(key ^ mix32(i + 1)), 2));
    for (const u of draws) {
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
    const mean = draws.reduce((s, u) => s + u, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    const deciles = new Array<number>(10).fill(0);
    for (const u of draws) deciles[Math.floor(u * 10)]!++;
    for (const count of deciles) expect(Math.abs(count - 2_000)).toBeLessThan(200);
  });
});
