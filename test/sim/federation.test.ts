// seed 000 §163–§169, §266–§268, §296: federated sites take a domain's leases and write under their authority guard; after a failover the old site, cut off and still running, is refused on Acquire and on Mutate; an authority site cut off goes on normally; the scenario format refuses what a federation cannot run.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { Command } from '../../model/commands.ts';
import type { History, OpEvent } from '../../model/history.ts';
import { parseScenario, type ScenarioInput } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

const store = { name: 'memory', factory: createMemoryStore, typedAnswers: true };

/** Three sites of two controllers (c1 c4, c2 c5, c3 c6); t1 starts at site 1, t2 at site 2. Scripted faults only. */
const FEDERATED: ScenarioInput = {
  name: 'federation-probe',
  title: 'probe',
  sources: ['000 §296'],
  workload: { controllers: 6, tenants: 2, scopes: 2, mix: { 'env-deploy': 1 }, horizonMs: 10_000, leaseTtlMs: 1_500 },
  faults: {
    profile: { networkDelayMsMin: 1, networkDelayMsMax: 5 },
    scripted: [
      // Site 1 is cut off and t1 moves to site 2 meanwhile; later site 2, holding both domains, is cut off.
      { f: 'site-cut', at: 1_000, site: 1, durationMs: 5_000 },
      { f: 'site-failover', at: 1_500, domain: 't1' },
      { f: 'site-cut', at: 7_000, site: 2, durationMs: 2_000 },
    ],
  },
  invariants: ['one-owner-per-epoch', 'lease-exclusive', 'site-authority-first'],
  expect: 'pass',
  operations: 60,
  federation: { sites: 3 },
};

interface Call {
  readonly process: string;
  readonly time: number;
  readonly command: Command;
  readonly outcome: string | null;
}

/** Every Acquire and Mutate of the history with the kind of its answer. */
function calls(history: History): ReadonlyArray<Call> {
  const open = new Map<string, OpEvent>();
  const found: Call[] = [];
  for (const event of history) {
    if (event.type === 'fault' || event.type === 'truth' || (event.f !== 'Acquire' && event.f !== 'Mutate')) continue;
    if (event.type === 'invoke') open.set(event.process, event);
    else {
      const invoke = open.get(event.process)!;
      found.push({ process: event.process, time: invoke.time, command: invoke.value as Command, outcome: event.type === 'ok' ? (event.value as { kind: string }).kind : null });
    }
  }
  return found;
}

const site = (process: string): number => ({ c1: 1, c4: 1, c2: 2, c5: 2, c3: 3, c6: 3 })[process.split('#')[0]!]!;
const epochOf = (command: Command): number | undefined => ('guard' in command ? command.guard?.epoch : undefined);

describe('federation site authority', () => {
  it('refuses the old site on Acquire and on Mutate after the failover, while it is cut off and still running (000 §168, §296)', async () => {
    const scenario = parseScenario(FEDERATED, 'test');
    const refused = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) {
      const result = await runScenario({ scenario, seed, store });
      expect(result.valid, result.violations[0]?.message).toBe(true);
      const stale = calls(result.history).filter((c) => site(c.process) === 1 && c.time > 1_500 && c.time < 6_000 && epochOf(c.command) === 1 && (c.command as { guard?: { role: string } }).guard?.role === 'authority:t1');
      for (const c of stale) {
        expect(c.outcome === null || c.outcome === 'Fenced', `${c.process} ${c.command.kind} at ${c.time} answered ${c.outcome}`).toBe(true);
        if (c.outcome === 'Fenced') refused.add(c.command.kind);
      }
    }
    expect([...refused].sort()).toEqual(['Acquire', 'Mutate']);
  });

  it('lets an authority site cut off the WAN go on taking leases and writing in its domains (000 §267)', async () => {
    const result = await runScenario({ scenario: parseScenario(FEDERATED, 'test'), seed: 1, store });
    const duringCut = calls(result.history).filter((c) => site(c.process) === 2 && c.time > 7_000 && c.time < 9_000);
    expect(duringCut.filter((c) => c.outcome === 'Acquired' || c.outcome === 'Accepted').length).toBeGreaterThan(0);
    expect(duringCut.filter((c) => c.outcome === 'Fenced')).toEqual([]);
  });

  it('sends a domain\'s operations to the site that holds it, and a site that learned it lost a domain refuses its operations (000 §167)', async () => {
    const result = await runScenario({ scenario: parseScenario(FEDERATED, 'test'), seed: 2, store });
    const granted = calls(result.history).filter((c) => c.outcome === 'Acquired' && epochOf(c.command) !== undefined);
    // Every grant is to the site the federation gave the epoch: t1 epoch 1 to site 1, epoch 2 to site 2, t2 epoch 1 to site 2.
    for (const c of granted) {
      const role = (c.command as { guard: { role: string } }).guard.role;
      expect(site(c.process), `${c.process} under ${role} epoch ${epochOf(c.command)}`).toBe(role === 'authority:t1' && epochOf(c.command) === 1 ? 1 : 2);
    }
    const refusals = result.history.filter((e) => e.type === 'fail' && e.f === 'site-authority');
    expect(refusals.length).toBeGreaterThan(0);
  });

  it('is refused by the scenario format where a federation cannot run', () => {
    const rejection = (input: unknown) => {
      try {
        parseScenario(input, 'test');
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(rejection({ ...FEDERATED, coordination: { voters: 3 } })).toMatch(/federation and coordination do not run together/);
    expect(rejection({ ...FEDERATED, federation: undefined })).toMatch(/site-cut, site-failover and site-authority-first need federation/);
    expect(rejection({ ...FEDERATED, invariants: ['lease-exclusive'] })).toMatch(/judged by site-authority-first/);
    expect(rejection({ ...FEDERATED, workload: { ...FEDERATED.workload, mix: { 'multi-resource': 1 } } })).toMatch(/carries the site's authority guard/);
    expect(rejection({ ...FEDERATED, faults: { ...FEDERATED.faults, scripted: [{ f: 'site-cut', at: 0, site: 4, durationMs: 10 }] } })).toMatch(/names a site beyond federation.sites/);
    expect(rejection({ ...FEDERATED, faults: { ...FEDERATED.faults, scripted: [{ f: 'site-failover', at: 0, domain: 't3' }] } })).toMatch(/names a domain t<k> beyond workload.tenants/);
    expect(rejection({ ...FEDERATED, federation: { sites: 3, faults: { siteCutPct: 5 } } })).toMatch(/federation nemesis ticks/);
  });
});
