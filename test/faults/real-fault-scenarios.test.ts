// seed 000 §272–§276, §297: failover to a lagging replica and restore from an older data directory,
// done for real against PostgreSQL, are caught without the recovery epoch and harmless with it;
// the jobs table of seed 001 comes back with them.

import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { startRealRun } from '../../campaign/real-faults.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

async function runReal(name: string, seed: number) {
  const real = await startRealRun(seed);
  try {
    return await runScenario({ scenario: loadScenario(name), seed, store: real.store, faults: 'real', realFaults: real.driver });
  } finally {
    await real.close();
  }
}

// This file's own clusters: other test files may run clusters of their own at the same time.
const clusterDirs = () => [...readdirSync('/dev/shm'), ...readdirSync(tmpdir())].filter((name) => name.startsWith(`pg-cluster-${process.pid}-`));

describe('real failover and restore', () => {
  const before = new Set(clusterDirs());

  // Each run has a primary/replica pair of its own, so the two pairs of scenarios run side by
  // side (they mostly wait on the servers); the check below runs after both.
  for (const name of ['db-failover', 'restore']) {
    test(`${name}-unmitigated is caught and ${name} passes, seed 1`, { concurrent: true, timeout: 120_000 }, async ({ expect }) => {
      const unmitigated = await runReal(`${name}-unmitigated`, 1);
      expect(unmitigated.valid).toBe(false);
      expect(unmitigated.violations.map((v) => v.invariant)).toEqual(expect.arrayContaining(['restore-invalidates']));
      // The real actions happened: the replica was promoted or the data directory restored.
      expect(unmitigated.realActions.map((a) => a.outcome).join('\n')).toMatch(name === 'db-failover' ? /replica promoted/ : /restored from/);

      const mitigated = await runReal(name, 1);
      expect(mitigated.violations).toEqual([]);
      expect(mitigated.valid).toBe(true);
    });
  }

  // Seed 001 §93, §283, §340: the jobs table is in PostgreSQL, so a real failover and a real
  // restore take it back with everything else; accepted jobs still finish, none twice.
  test('jobs-db-failover: the jobs table survives a real failover and restore, seed 1', { concurrent: true, timeout: 120_000 }, async ({ expect }) => {
    const run = await runReal('jobs-db-failover', 1);
    expect(run.realActions.map((a) => a.outcome).join('\n')).toMatch(/replica promoted[\s\S]*restored from/);
    expect(run.violations).toEqual([]);
    expect(run.valid).toBe(true);
    const restore = run.history.find((e) => e.type === 'fault' && e.f === 'db-restore' && e.value['phase'] === undefined);
    const finishedAfter = run.history.filter((e) => e.type === 'ok' && e.f === 'FinishJob' && e.index > restore!.index);
    expect(finishedAfter.length, 'jobs finish after the restore').toBeGreaterThan(0);
  });

  test('no cluster directory is left behind', () => {
    expect(clusterDirs().filter((dir) => !before.has(dir))).toEqual([]);
  });
});
