// The vitest configuration StrykerJS runs (campaign/mutation/): only the mutation test, in one
// shared process per Stryker worker, with no timeout of vitest's own (Stryker times out a mutant
// that loops, by its own clock, and counts it as killed by a timeout).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/mutation/*.mutation.ts'],
    pool: 'forks',
    testTimeout: 0,
  },
});
