#!/usr/bin/env node
// Entry point for `npx testbed`. The installed package runs the compiled CLI (dist/cli/main.js)
// and needs nothing else. In a source checkout, where cli/main.ts sits next to this file and tsx
// is installed, it runs the TypeScript sources, so that what runs is what is checked in.
import { existsSync } from 'node:fs';

async function tsx() {
  try {
    return await import('tsx/esm/api');
  } catch {
    return null;
  }
}

const loader = existsSync(new URL('./main.ts', import.meta.url)) ? await tsx() : null;
if (loader !== null) {
  loader.register();
  await import('./main.ts');
} else {
  await import('../dist/cli/main.js');
}
