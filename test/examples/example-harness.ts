// What the tests of the real libraries under examples/ share: an unfenced use that a sweep catches
// and whose failure replays exactly, and a fenced use that passes every seed.

import path from 'node:path';
import type { ExpectStatic } from 'vitest';
import { usePostgres, type PostgresFixture } from '../postgres/fixture.ts';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCliAsync, type CliResult } from '../cli/run-cli.ts';

interface SweepJson {
  readonly failures: number;
  readonly coverage: { readonly outcomes: { readonly missing: ReadonlyArray<string> } };
}

/**
 * Call at the top level of a test file for `examples/<name>`. The unfenced and the fenced test each
 * get an embedded server of their own, so they can run side by side (they mostly wait on the
 * database); a shared server (DATABASE_URL) is one database for both, and they take turns on it.
 */
export function exampleHarness(name: string, scenario: string, cliTimeoutMs: number) {
  const scratch = scratchDirs(`testbed-${name}-`);
  const unfencedPg = usePostgres();
  const fencedPg = usePostgres();
  const example = path.resolve(import.meta.dirname, '../../examples', name);

  function testbed(pg: PostgresFixture, args: ReadonlyArray<string>, cwd: string): Promise<CliResult> {
    return runCliAsync(args, { cwd, env: { DATABASE_URL: pg.server().connectionString }, timeoutMs: cliTimeoutMs });
  }

  return {
    sideBySide: process.env.DATABASE_URL === undefined,

    /** Sweeps seeds 1..5 with the unfenced use, expects a failure, and returns the sweep's output. */
    async sweepUnfenced(expect: ExpectStatic): Promise<{ readonly stdout: string; readonly cwd: string }> {
      const cwd = scratch();
      const sweep = await testbed(unfencedPg, ['sweep', '--scenario', scenario, '--seeds', '1..5', '--adapter', path.join(example, 'unfenced.ts')], cwd);
      expect(sweep.code, sweep.stderr).toBe(1);
      return { stdout: sweep.stdout, cwd };
    },

    /** Replays the failure file the unfenced sweep wrote: it fails again, with the same trace hash. */
    async expectReplayMatches(expect: ExpectStatic, sweepStdout: string, cwd: string): Promise<void> {
      const failureFile = /^failure file: (.+)$/m.exec(sweepStdout)![1]!;
      const replay = await testbed(unfencedPg, ['replay', failureFile, '--adapter', path.join(example, 'unfenced.ts')], cwd);
      expect(replay.code, replay.stderr).toBe(1);
      expect(replay.stdout).toMatch(/trace hash matches the failure file/);
    },

    /** Sweeps seeds 1..10 with the fenced use: every seed passes, and not vacuously. */
    async expectFencedPasses(expect: ExpectStatic): Promise<void> {
      const sweep = await testbed(fencedPg, ['sweep', '--scenario', scenario, '--seeds', '1..10', '--adapter', path.join(example, 'fenced.ts'), '--json'], scratch());
      expect(sweep.code, sweep.stdout + sweep.stderr).toBe(0);
      const result = JSON.parse(sweep.stdout) as SweepJson;
      expect(result.failures).toBe(0);
      // Writes were accepted, and a late one was refused.
      expect(result.coverage.outcomes.missing).not.toContain('Mutate:Accepted');
      expect(result.coverage.outcomes.missing).not.toContain('Mutate:StaleFence');
    },
  };
}
