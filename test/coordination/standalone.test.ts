// seed 001 §162, §165, §325–§327: the standalone backend is one voter without a network between
// voters, and the layer above sees the same semantics as on a cluster: every incarnation takes a
// new term and a new epoch, writes it first, and creates its leases under exactly that epoch.
// seed 000 §157–§160: a scheduled job confirms its lease right before its external effect.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant } from '../../mutants/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runMutants } from '../../campaign/mutant-run.ts';
import { runScenario } from '../../sim/run.ts';
import { LEASE_CREATING } from '../../model/checkers/lease-creations.ts';

const SEEDS = 40;

const incarnationOf = (process: string): string => process.split(':')[0]!;

describe('standalone coordination', () => {
  it(`one voter elects itself with a strictly newer epoch each time, and every lease carries its leader's current epoch (${SEEDS} seeds)`, async () => {
    const scenario = loadScenario('standalone-coordination');
    for (let seed = 1; seed <= SEEDS; seed++) {
      const result = await runScenario({ scenario, seed, store: { name: 'memory', factory: createMemoryStore } });
      expect(result.valid, `seed ${seed}`).toBe(true);
      // Walk the history in order: the epoch an incarnation leads under is its latest election.
      const epochOf = new Map<string, number>();
      let last = 0;
      let elections = 0;
      let guarded = 0;
      for (const event of result.history) {
        if (event.type === 'fault' && event.f === 'leader-change') {
          const value = event.value as { epoch: number; leader: string; voters: number; votes: ReadonlyArray<string> };
          expect(value.voters).toBe(1);
          expect(value.votes).toEqual(['c1']);
          expect(value.epoch, `seed ${seed} #${event.index}`).toBeGreaterThan(last);
          epochOf.set(value.leader, value.epoch);
          last = value.epoch;
          elections++;
        }
        const guard = event.type === 'invoke' && LEASE_CREATING.has(event.f) ? (event.value as { guard?: { epoch: number } }).guard : undefined;
        if (guard !== undefined) {
          guarded++;
          expect(guard.epoch, `seed ${seed} #${event.index}`).toBe(epochOf.get(incarnationOf(event.process)));
        }
      }
      expect(elections, `seed ${seed}`).toBeGreaterThanOrEqual(2);
      expect(guarded, `seed ${seed}`).toBeGreaterThan(0);
    }
  });

  it('a job that calls the provider without confirming its lease is caught, and the counterexample shows the pause that outlived it', async () => {
    const [report] = await runMutants({ mutants: [findMutant('effect-without-lease-confirmation')!] });
    expect(report!.caught).toBe(true);
    expect(report!.scenario).toBe('standalone-coordination');
    expect(report!.seedsTried).toBeLessThan(20);
    // The effect outlived its lease (lease-exclusive) or came under a superseded token (one-owner-per-epoch).
    expect(['one-owner-per-epoch', 'lease-exclusive']).toContain(report!.violations[0]?.invariant);
    // docs/ARCHITECTURE.md "Performance targets": at most 24 operations on a coordinated scenario.
    expect(report!.shrunkOperations, report!.counterexample ?? '').toBeLessThanOrEqual(24);
    expect(report!.counterexample).toMatch(/DispatchJob[\s\S]*token":1[\s\S]*pause[\s\S]*effect-applied[^\n]*token=1/);
  });
});
