import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that run only in-process, pure code: the model, the simulator and its sweeps on the
 * memory store. No child process, server, port, environment variable or process-wide hook; what
 * they keep at module level is read-only tables and memo caches. They share worker processes and
 * their module cache (`isolate: false`) instead of each paying a fresh process and a fresh import
 * of the simulator. Everything else (the CLI, PostgreSQL, real faults, files on disk, the browser)
 * keeps a process of its own per file. A new test file is isolated unless it is in a folder below.
 */
const SHARED = [
  'test/model/**/*.test.ts',
  'test/coordination/**/*.test.ts',
  'test/mutants/**/*.test.ts',
  // Not determinism, raft-service or port-contract: they start child processes.
  'test/sim/!(determinism|raft-service|port-contract).test.ts',
  'test/scenarios/{regressions,sweep-pass-a,sweep-pass-b,unmitigated}.test.ts',
  'test/shrink/{ddmin,shrink-plan}.test.ts',
  'test/stress/{accepted-writes,phantom-lease,stress-capabilities}.test.ts',
  'test/campaign/*.test.ts',
  'test/reports/{index-html,lease-timeline}.test.ts',
  'test/api/*.test.ts',
  'test/{purity,memory-store}.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    // Many test files mostly wait on child processes and PostgreSQL: at least two files run at
    // once even on two cores (the default, one per core less one, would run them one at a time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Both projects share one queue and the workers, slowest file first by the last run's
    // timings; the queue takes projects in name order, so "isolated", which holds the slowest
    // files (the gate suite, PostgreSQL), starts first.
    projects: [
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED] } },
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
    ],
  },
});
