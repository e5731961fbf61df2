// A store that declares only some command kinds (capabilities.commands) is told, per scenario,
// whether it was judged: `run` says "untested" naming what the store lacks (exit 0, no failure
// file), and "not judged" for a checker that would read a command it lacks; `sweep` counts
// untested runs apart from failing and undecided ones.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeMemoryModule } from './memory-module.ts';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-untested-');

function leaseOnlyModule(dir: string): string {
  return writeMemoryModule(dir, {
    file: 'lease-only.mts',
    store: `{ name: 'lease-only', capabilities: { commands: ['Acquire', 'Renew', 'Release', 'Mutate'] }, execute: (c) => base.execute(c), close: () => base.close() }`,
  });
}

describe('a lease-only store on the command line', () => {
  const dir = scratch();
  const adapter = leaseOnlyModule(dir);

  test('run: a scenario that needs idempotency records is untested, naming what the store lacks', () => {
    const result = runCli(['run', '--scenario', 'provider-timeout-unknown', '--seed', '1', '--adapter', adapter], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^provider-timeout-unknown seed 1 on .*lease-only\.mts \(faults: sim\): untested \(the store lacks [^)]*IdempotencyBegin[^)]*\)$/m);
    expect(existsSync(path.join(dir, 'out/failures'))).toBe(false);
  });

  test('run: a lease scenario is judged, and a checker that reads intents is named as not judged', () => {
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', adapter, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { valid: unknown; untested?: string; unjudged?: ReadonlyArray<{ invariant: string; lacks: string[] }> };
    expect(document.valid).toBe(true);
    expect(document.untested).toBeUndefined();
    expect(document.unjudged).toContainEqual({ invariant: 'release-after-reconcile', lacks: ['PlanIntent', 'TransitionIntent'] });
  });

  test('sweep: untested runs are counted apart, and do not fail the sweep', () => {
    const result = runCli(['sweep', '--scenario', 'all', '--seeds', '1..2', '--adapter', adapter, '--workers', '1', '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      runs: number;
      failures: number;
      undecided: number;
      untested: number;
      unjudged: Record<string, number>;
      scenarios: ReadonlyArray<{ scenario: string; untested: number; runs: number; unjudged: Record<string, number> }>;
      coverage: { commands: { total: number; missing: string[] }; outcomes: { total: number; missing: string[]; unreachable: unknown[] } };
    };
    expect(summary.failures).toBe(0);
    expect(summary.untested).toBeGreaterThan(0);
    expect(summary.untested).toBeLessThan(summary.runs);
    expect(summary.scenarios.find((s) => s.scenario === 'stale-holder')!.untested).toBe(0);
    expect(summary.scenarios.find((s) => s.scenario === 'quorum-loss')!.untested).toBe(2);
    // Invariants left out of played runs are counted too: both stale-holder runs could not judge
    // release-after-reconcile (it reads intents, which this store lacks).
    expect(summary.scenarios.find((s) => s.scenario === 'stale-holder')!.unjudged['release-after-reconcile']).toBe(2);
    expect(summary.unjudged['release-after-reconcile']).toBeGreaterThanOrEqual(2);
    // Coverage is counted against the four kinds the store declares: it missed no pair of a kind it lacks.
    expect(summary.coverage.commands.total).toBe(4);
    expect(summary.coverage.outcomes.total).toBe(14);
    for (const pair of summary.coverage.outcomes.missing) expect(pair).toMatch(/^(Acquire|Renew|Release|Mutate):/);
    expect(summary.coverage.outcomes.unreachable).toEqual([]);
  });
});
