// A user's store module in TypeScript. Node runs a `.js` module as it is; a `.ts` one needs a
// loader. The testbed run from its sources has tsx registered already (cli/bin.mjs); the installed
// package registers the tsx of the user's own project (where the README installs it) before it
// imports such a module, so that a printed replay line runs as pasted, with no NODE_OPTIONS.

import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = /\.(?:ts|mts|cts|tsx)$/;

let registered = false;

/** Whether `file` is TypeScript and this process may still need a loader for it. */
function needsLoader(file: string): boolean {
  return TYPESCRIPT.test(file) && !registered && !import.meta.url.endsWith('.ts');
}

/**
 * Registers tsx, resolved from the module's folder or else the working directory, unless a loader
 * is needed for no reason (a JavaScript module, the sources). Returns false when a TypeScript
 * module may need one and no tsx is installed where the user's project would have it (a loader of
 * the user's own, given with NODE_OPTIONS, may still be active).
 */
export async function loaderFor(file: string): Promise<boolean> {
  if (!needsLoader(file)) return true;
  for (const from of [file, path.join(process.cwd(), 'package.json')]) {
    let esm: string;
    let cjs: string;
    try {
      const require = createRequire(from);
      esm = require.resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
      cjs = require.resolve('tsx/cjs/api');
    } catch {
      continue;
    }
    // Both hooks, as the tsx command registers them: a module of a CommonJS package goes through require.
    ((await import(pathToFileURL(esm).href)) as { register(): void }).register();
    ((await import(pathToFileURL(cjs).href)) as { register(): void }).register();
    registered = true;
    return true;
  }
  return false;
}

/**
 * What Node raises for a TypeScript module it cannot run: an unknown extension (Node 20), or type
 * syntax it does not strip itself (later versions, which load plain `.ts` files on their own).
 */
export const NO_LOADER_CODES: ReadonlySet<string> = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING']);

/**
 * The module's exports as an ES module has them. In a project without `"type": "module"` tsx runs a
 * `.ts` module as CommonJS, and importing it gives its whole `module.exports` as the default export
 * (`{ __esModule: true, default: factory }`); code tsx compiles unwraps that on its own, the
 * installed package (compiled by tsc) does it here.
 */
export function asEsModule(loaded: { default?: unknown }): { default?: unknown } {
  const inner = loaded.default as { __esModule?: unknown; default?: unknown } | null | undefined;
  return typeof inner === 'object' && inner !== null && inner.__esModule === true ? { default: inner.default } : loaded;
}

/** The one line saying how to load a TypeScript store module when no loader could be found. */
export function noLoaderLine(spec: string): string {
  return `adapter module ${spec} is TypeScript and no TypeScript loader was found: install tsx in your project (npm install --save-dev tsx), or run with NODE_OPTIONS=--import=<a loader>`;
}
