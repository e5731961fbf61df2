#!/usr/bin/env node
// Entry point for `npx testbed`. The installed package runs the compiled CLI (dist/cli/main.js)
// and needs nothing else. In a source checkout, where cli/main.ts sits next to this file and tsx
// is installed, it runs the TypeScript sources, so that what runs is what is checked in.
import { existsSync } from 'node:fs';

async function tsx() {
  try {
    return { esm: await import('tsx/esm/api'), cjs: await import('tsx/cjs/api') };
  } catch {
    return null;
  }
}

const loader = existsSync(new URL('./main.ts', import.meta.url)) ? await tsx() : null;
if (loader !== null) {
  // Both hooks, as the tsx command registers them: a store module in a package without
  // "type": "module" is CommonJS to Node, and is loaded through require.
  loader.esm.register();
  loader.cjs.register();
  await import('./main.ts');
} else {
  await import('../dist/cli/main.js');
}
