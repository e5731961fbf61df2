import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // No testTimeout: vitest's 5 s default stays, as in a project that copies the README's recipes,
    // and each test that runs scenarios says how long it may take, as the recipes do.
  },
});
