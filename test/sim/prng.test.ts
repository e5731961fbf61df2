// docs/ARCHITECTURE.md "Time and determinism": one PRNG stream per component, derived by name, so adding a stream never shifts another.
import { describe, expect, it } from 'vitest';
import { Streams, streamFor } from '../../sim/prng.ts';

const draw = (n: number, next: () => number): number[] => Array.from({ length: n }, next);

describe('PRNG streams', () => {
  it('gives the same draws for the same seed and name', () => {
    expect(draw(20, streamFor(7, 'network').next)).toEqual(draw(20, streamFor(7, 'network').next));
  });

  it('does not shift a stream when another stream is added or drawn from', () => {
    const alone = new Streams(42);
    const a1 = draw(50, () => alone.get('network').next());
    const crowded = new Streams(42);
    crowded.get('provider').next();
    crowded.get('a-new-component').int(0, 1000);
    const a2: number[] = [];
    for (let i = 0; i < 50; i++) {
      a2.push(crowded.get('network').next());
      crowded.get('provider').next();
    }
    expect(a2).toEqual(a1);
  });

  it('gives different draws to different names and different seeds', () => {
    expect(draw(10, streamFor(1, 'a').next)).not.toEqual(draw(10, streamFor(1, 'b').next));
    expect(draw(10, streamFor(1, 'a').next)).not.toEqual(draw(10, streamFor(2, 'a').next));
  });

  it('keeps int draws inside their inclusive bounds and chance within 0..100', () => {
    const s = streamFor(3, 'bounds');
    for (let i = 0; i < 1000; i++) {
      const v = s.int(-3, 4);
      expect(v).toBeGreaterThanOrEqual(-3);
      expect(v).toBeLessThanOrEqual(4);
    }
    expect(s.chance(0)).toBe(false);
    expect(s.chance(100)).toBe(true);
  });
});
