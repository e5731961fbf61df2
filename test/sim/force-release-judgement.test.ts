// seed 000 §202 and seed 002 (PR #53): the operator judges a holder stalled from what it observes,
// timing the judgement on its own clock. Within the drift the schema allows, and across a step of
// its wall clock, it never forces a lease renewed within ⅔ of its TTL (force-release-judged).
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../adapters/memory.ts';
import { LocalClock } from '../../sim/clock.ts';
import { runScenario } from '../../sim/run.ts';
import { CATALOG } from '../../scenarios/catalog.ts';
import { defineScenario } from '../../scenarios/index.ts';

describe('the operator times its stall judgement on a monotonic clock', () => {
  it('a skew steps the wall clock but not the monotonic clock, which keeps the new rate from then on', () => {
    const clock = new LocalClock();
    clock.skew(5_000, 3_000, 100_000);
    expect(clock.read(6_000)).toBe(6_000 + 3_000 + 600);
    expect(clock.monotonic(5_000)).toBe(5_000);
    expect(clock.monotonic(6_000)).toBe(6_100);
  });

  it('no live lease is forced when the operator clock runs 10% fast and steps forward mid-run (200 seeds)', async () => {
    const base = CATALOG.find((s) => s.name === 'force-release-stalled-holders')!;
    const scenario = defineScenario({
      ...base,
      name: 'force-release-operator-clock',
      faults: { ...base.faults, scripted: [{ f: 'clock-skew', at: 5_000, node: 'operator', offsetMs: 3_000, driftPpm: 100_000 }] },
    });
    const failing: number[] = [];
    let forced = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore }, differential: false });
      if (r.valid !== true) failing.push(seed);
      forced += r.history.filter((e) => e.type === 'ok' && e.f === 'ForceRelease' && (e.value as { kind?: string }).kind === 'ForceReleased').length;
    }
    expect(failing).toEqual([]);
    // Not vacuous: stalled leases were forced.
    expect(forced).toBeGreaterThan(20);
  }, 60_000);
});
