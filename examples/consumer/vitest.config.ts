import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A scenario run is a whole simulated deployment: give property tests room.
    testTimeout: 120_000,
  },
});
