#!/usr/bin/env node
// Builds dist/: the package as JavaScript with declarations (tsconfig.build.json), from scratch.
// `npm pack` and `npm publish` (and `npm run build`) fail on any type error. As the `prepare` of
// `npm ci` or `npm install` in a checkout, the build never fails the install: whatever tsc emitted
// is kept, and type errors are left to `npm run typecheck`.

import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const lenient = process.env.npm_lifecycle_event === 'prepare' && !['pack', 'publish'].includes(process.env.npm_command ?? '');
const started = performance.now();

function give(up) {
  if (lenient) {
    process.stderr.write(`build: ${up}; dist/ may be incomplete (npm pack will refuse it)\n`);
    process.exit(0);
  }
  process.stderr.write(`build: ${up}\n`);
  process.exit(1);
}

let tsc;
try {
  tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  give('typescript is not installed (a devDependency)');
}
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) give(`tsc exited with ${result.status ?? result.signal}`);
if (!existsSync(path.join(root, 'dist/index.js')) || !existsSync(path.join(root, 'dist/cli/main.js'))) give('dist/index.js or dist/cli/main.js is missing');
process.stderr.write(`build: dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
