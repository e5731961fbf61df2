// The CLI contract end to end: JSON shapes, exit codes, replay lines, and determinism across processes.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { COMMAND_KINDS } from '../../model/outcome-kinds.ts';

const scratch = scratchDirs('testbed-cli-')();

describe('testbed scenarios', () => {
  test('lists at least 18 scenarios that must pass, each citing seed sections', () => {
    const result = runCli(['scenarios', '--json']);
    expect(result.code).toBe(0);
    const { scenarios } = JSON.parse(result.stdout) as { scenarios: Array<{ name: string; title: string; sources: string[]; faults: string[]; expect: string }> };
    expect(scenarios.filter((s) => s.expect === 'pass').length).toBeGreaterThanOrEqual(18);
    for (const s of scenarios) {
      expect(s.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.sources.length).toBeGreaterThan(0);
      for (const source of s.sources) expect(source).toMatch(/^00[0-3] /);
    }
    for (const name of ['db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated']) {
      expect(scenarios.map((s) => s.name)).toContain(name);
    }
  });
});

describe('testbed run', () => {
  test('the same seed prints the same trace hash in two processes; another seed differs', () => {
    const first = runCli(['run', '--scenario', 'stale-holder', '--seed', '7', '--json']);
    const second = runCli(['run', '--scenario', 'stale-holder', '--seed', '7', '--json']);
    const other = runCli(['run', '--scenario', 'stale-holder', '--seed', '8', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(Object.keys(a)).toEqual(expect.arrayContaining(['scenario', 'seed', 'adapter', 'traceHash', 'events', 'operations', 'violations', 'replay']));
    expect(a.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(second.stdout).traceHash).toBe(a.traceHash);
    expect(JSON.parse(other.stdout).traceHash).not.toBe(a.traceHash);
  });

  test('an unmitigated scenario exits 1 with its violation and a replay line', () => {
    const result = runCli(['run', '--scenario', 'restore-unmitigated', '--seed', '1', '--no-shrink'], { cwd: scratch });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/VIOLATION/);
    expect(result.stdout).toMatch(/^replay: npx testbed run --scenario restore-unmitigated --seed 1 --adapter memory$/m);
  });

  test('a mutant is caught, shrunk, written to a failure file, and the file replays exactly', () => {
    const run = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:advisory-lock-only', '--json'], { cwd: scratch });
    expect(run.code, run.stderr).toBe(1);
    const caught = JSON.parse(run.stdout);
    expect(caught.replay).toBe('npx testbed run --scenario stale-holder --seed 1 --adapter mutant:advisory-lock-only');
    expect(caught.shrunk).toBe(true);
    expect(readdirSync(path.join(scratch, 'out/failures'))).toContain(path.basename(caught.failureFile));
    const replay = runCli(['replay', caught.failureFile, '--json'], { cwd: scratch });
    expect(replay.code, replay.stderr).toBe(1);
    const replayed = JSON.parse(replay.stdout);
    expect(replayed.exact).toBe(true);
    expect(replayed.violations.length).toBeGreaterThan(0);
    // A file whose recorded history and hash no longer match what its plan does: the replay says
    // where the two first part (exit 3: the replay was not exact).
    const where = path.resolve(scratch, caught.failureFile);
    const file = JSON.parse(readFileSync(where, 'utf8'));
    file.history[3] = { ...file.history[3], time: file.history[3].time + 1 };
    file.traceHash = '0'.repeat(64);
    writeFileSync(where, JSON.stringify(file));
    const tampered = runCli(['replay', caught.failureFile], { cwd: scratch });
    expect(tampered.code).toBe(3);
    expect(tampered.stdout).toMatch(/trace hash differs from the failure file \(0{16}\): first different at event #3, recorded t=\d+ .+, replayed t=\d+ /);
  });
});

describe('testbed sweep', () => {
  test('reports runs, failures and seeds per second as JSON, and shards split the range', () => {
    const whole = runCli(['sweep', '--scenario', 'renewal-race', '--seeds', '1..6', '--json']);
    expect(whole.code, whole.stderr).toBe(0);
    const summary = JSON.parse(whole.stdout);
    expect(summary).toMatchObject({ scenario: 'renewal-race', adapter: 'memory', runs: 6, failures: 0, firstFailure: null });
    expect(summary.seedsPerSecond).toBeGreaterThan(0);
    // What the workload reached of the port: renewal races send Acquire and Renew, never a reservation.
    expect(summary.coverage.commands.total).toBe(COMMAND_KINDS.length);
    expect(summary.coverage.scenarios['renewal-race'].commands).toEqual(expect.arrayContaining(['Acquire', 'Renew']));
    expect(summary.coverage.commands.missing).toContain('Reserve');
    expect(summary.coverage.commands.missing).not.toContain('Renew');
    const shard = JSON.parse(runCli(['sweep', '--scenario', 'renewal-race', '--seeds', '1..6', '--shard', '2/3', '--json']).stdout);
    expect(shard.runs).toBe(2);
  });

  test('a sweep that finds a violation exits 1 and names its first failure', () => {
    const result = runCli(['sweep', '--scenario', 'db-failover-unmitigated', '--seeds', '1..3', '--json'], { cwd: scratch });
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout);
    expect(summary.failures).toBeGreaterThan(0);
    expect(summary.firstFailure.replay).toMatch(/^npx testbed run --scenario db-failover-unmitigated --seed \d+ --adapter memory$/);
  });

  test('a sweep on worker threads reports exactly what a single-threaded sweep reports', () => {
    // 000 §281–§283 via a store mutant: failures, their order and the recorded first failure must not depend on the threads.
    const args = ['sweep', '--scenario', 'stale-holder', '--seeds', '1..40', '--adapter', 'mutant:no-fencing-check', '--json'];
    const one = runCli([...args, '--workers', '1'], { cwd: scratch });
    const two = runCli([...args, '--workers', '2'], { cwd: scratch });
    expect(one.code, one.stderr).toBe(1);
    expect(two.code, two.stderr).toBe(1);
    const [a, b] = [JSON.parse(one.stdout), JSON.parse(two.stdout)];
    expect(a.failures).toBeGreaterThan(0);
    // Timings differ from run to run; everything else must not.
    for (const doc of [a, b]) {
      delete doc.seedsPerSecond;
      delete doc.firstFailure.afterMs;
    }
    expect(b).toEqual(a);
  });
});
