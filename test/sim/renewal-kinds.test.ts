// Stores whose renewals confirm a lease without extending it (capabilities.renewal 'confirms',
// adapters/port.ts), as a lock library without heartbeats has them (000 §21–§24 state the
// reference, extending renewal). The reference model follows the declared kind, the controllers
// count such a confirmation as no extension of their lease's window, and a store that declares
// one kind and does the other is caught.

import { describe, expect, test } from 'vitest';
import type { StoreFactory } from '../../adapters/port.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { checkStore } from '../../campaign/check/check-store.ts';
import { raceCases } from '../../campaign/race/space.ts';
import { coverageOf } from '../../sim/coverage.ts';
import { coverageOfTallies, startTallies, tallyRun } from '../../cli/sweep-tallies.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario, type SimRunResult } from '../../sim/run.ts';
import confirmingStore, { confirmingAsExtending, confirmingClaimsExtension, extendingAsConfirming } from './fixtures/confirming-store.ts';

async function sweep(scenario: string, factory: StoreFactory, seeds: number): Promise<SimRunResult[]> {
  const out: SimRunResult[] = [];
  for (let seed = 1; seed <= seeds; seed++) out.push(await runScenario({ scenario: loadScenario(scenario), seed, store: { name: 'confirming-lock', factory } }));
  return out;
}

const renewed = (results: ReadonlyArray<SimRunResult>): number =>
  results.flatMap((r) => r.history).filter((e) => e.type === 'ok' && e.f === 'Renew' && (e.value as { kind?: string } | null)?.kind === 'Renewed').length;

describe('the reference model in the confirming variant', () => {
  test('Renewed answers the lease as it stands and changes nothing; Expired and Stale as in the reference', () => {
    const granted = step(initialState('confirms'), { kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 100 }, 1000);
    const renewal = { kind: 'Renew', scope: 's', holder: 'a', expectedToken: 1, ttlMs: 500 } as const;
    const confirmed = step(granted.state, renewal, 1050);
    expect(confirmed.outcome).toEqual({ kind: 'Renewed', lease: { scope: 's', holder: 'a', token: 1, acquiredAt: 1000, expiresAt: 1100 } });
    expect(confirmed.state).toBe(granted.state);
    expect(step(granted.state, renewal, 1100).outcome).toEqual({ kind: 'Expired' });
    expect(step(granted.state, { ...renewal, holder: 'b' }, 1050).outcome).toEqual({ kind: 'Stale', currentToken: 1 });
    // The reference variant extends, and its default state carries no renewal field (states and images unchanged).
    expect(initialState()).not.toHaveProperty('renewal');
    const extended = step(step(initialState(), { kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 100 }, 1000).state, renewal, 1050);
    expect(extended.outcome).toMatchObject({ kind: 'Renewed', lease: { expiresAt: 1550 } });
  });
});

describe('a store whose renewals only confirm', () => {
  test.each(['stale-holder', 'renewal-race', 'force-release-stalled-holders', 'scheduler-epoch'])('passes %s, its renewals judged, none taken for an extension', async (scenario) => {
    const results = await sweep(scenario, confirmingStore, 4);
    for (const r of results) expect(r.violations, `${scenario} seed ${r.seed}`).toEqual([]);
    expect(results.every((r) => r.valid === true)).toBe(true);
    expect(renewed(results)).toBeGreaterThan(0);
    // Every Renewed kept the expiry its lease was granted with: nothing was extended.
    for (const r of results) {
      const granted = new Map<string, number>();
      for (const e of r.history) {
        const lease = e.type === 'ok' ? (e.value as { lease?: { scope: string; token: number; expiresAt: number } } | null)?.lease : undefined;
        if (lease === undefined) continue;
        const key = `${lease.scope}/${lease.token}`;
        if (e.f === 'Renew') expect(lease.expiresAt, `${scenario} seed ${r.seed} ${key}`).toBe(granted.get(key));
        else if (!granted.has(key)) granted.set(key, lease.expiresAt);
      }
    }
  });

  test('declaring confirms and extending anyway is a differential finding', async () => {
    const results = await sweep('renewal-race', extendingAsConfirming, 4);
    expect(results.flatMap((r) => r.violations.map((v) => v.invariant))).toContain('differential');
  });

  test('confirming while declaring the reference (extending) renewal is a differential finding', async () => {
    const results = await sweep('renewal-race', confirmingAsExtending, 4);
    expect(results.flatMap((r) => r.violations.map((v) => v.invariant))).toContain('differential');
  });

  test('a library that claims the extension its lock never made lets two holders in: lease-exclusive', async () => {
    const results = await sweep('renewal-race', confirmingClaimsExtension, 2);
    for (const r of results) expect(r.violations.map((v) => v.invariant), `seed ${r.seed}`).toContain('lease-exclusive');
  });
});

describe('the command-level check follows the declared kind', () => {
  test('the confirming store agrees with the model in its variant', async () => {
    const result = await checkStore({ factory: confirmingStore, runs: 1_000, seed: 1 });
    expect(result.verdict).toBe('pass');
  });

  test.each([
    ['declares confirms, extends', extendingAsConfirming],
    ['declares the reference, confirms', confirmingAsExtending],
  ] as const)('%s: a divergence on a Renew', async (_name, factory) => {
    const result = await checkStore({ factory, runs: 5_000, seed: 1 });
    expect(result.verdict).toBe('fail');
    if (result.verdict !== 'fail') return;
    const last = result.steps.at(-1);
    expect(last !== undefined && 'command' in last ? last.command?.kind : undefined).toBe('Renew');
  });
});

describe('the race stage follows the declared kind', () => {
  test("a Renew raced from a held lease: the confirming variant's serial answer keeps the grant's expiry", () => {
    const renewedFromHeld = (renewal: 'extends' | 'confirms') =>
      raceCases(['Renew'], 1, ['Acquire', 'Renew'], undefined, renewal).flatMap((c) => {
        const outcome = step(c.built.model, c.commands[0]!, c.arrivals[0]!).outcome as { kind: string; lease?: { expiresAt: number } };
        return c.state.name === 'held' && outcome.kind === 'Renewed' ? [{ model: c.built.model, expiresAt: outcome.lease!.expiresAt }] : [];
      })[0]!;
    const confirming = renewedFromHeld('confirms');
    expect(confirming.model.renewal).toBe('confirms');
    const granted = [...confirming.model.leases.values()][0]!;
    expect(confirming.expiresAt).toBe(granted.expiresAt);
    expect(renewedFromHeld('extends').expiresAt).toBeGreaterThan(granted.expiresAt);
  });
});

describe('coverage on a store whose renewals only confirm', () => {
  test('a sweep lists the forced-release pairs unreachable, with the reason, not missing', async () => {
    const scenario = loadScenario('force-release-stalled-holders');
    const tallies = startTallies([scenario]);
    for (const run of await sweep(scenario.name, confirmingStore, 2)) {
      expect(run.storeRenewal).toBe('confirms');
      tallyRun(tallies, 0, run, coverageOf(run.history));
    }
    const outcomes = coverageOfTallies(tallies).outcomes;
    expect(outcomes.unreachable.map((u) => u.pair)).toEqual(['ForceRelease:ForceReleased', 'ForceRelease:Stale']);
    expect(outcomes.unreachable[0]!.reason).toMatch(/renewals only confirm/);
    expect(outcomes.missing).not.toContain('ForceRelease:ForceReleased');
  });
});
