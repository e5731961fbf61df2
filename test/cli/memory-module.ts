// Store modules on disk, as a user writes them for `--adapter <file>`: the memory store, wrapped
// by a few lines of JavaScript that give it the behaviour a test needs.

import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** The memory store's source file, which a module imports its factory from. */
export const MEMORY = path.resolve(import.meta.dirname, '../../adapters/memory.ts');

export interface MemoryModule {
  /** The file's name; its ending (.mjs, .mts) says how Node loads it. */
  readonly file: string;
  /** Import lines the module needs besides the memory store's. */
  readonly imports?: string;
  /** A statement the factory runs before it opens the memory store. */
  readonly beforeOpen?: string;
  /** What the factory returns: an expression over `base` (the memory store) and `options`. */
  readonly store: string;
}

/** Writes the module into `dir` and returns its path. */
export function writeMemoryModule(dir: string, module: MemoryModule): string {
  const file = path.join(dir, module.file);
  const lines = [
    module.imports,
    `import createMemoryStore from ${JSON.stringify(MEMORY)};`,
    'export default async (options) => {',
    module.beforeOpen === undefined ? undefined : `  ${module.beforeOpen}`,
    '  const base = await createMemoryStore(options);',
    `  return ${module.store};`,
    '};',
  ];
  writeFileSync(file, `${lines.filter((line) => line !== undefined).join('\n')}\n`);
  return file;
}
