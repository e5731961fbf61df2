// docs/ARCHITECTURE.md "House rules": model/ is pure — no I/O, no clocks, no randomness, no async.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

interface Violation {
  readonly rule: string;
  readonly line: number;
  readonly text: string;
}

const FORBIDDEN_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](node:[^'"]*|pg|pg\/[^'"]*|(?:\.\.\/)+(?:sim|adapters|cli|reports)(?:\/[^'"]*)?)['"]/;
const FORBIDDEN_CALLS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Date.now', /\bDate\.now\b/],
  ['new Date(', /\bnew\s+Date\s*\(/],
  ['Math.random', /\bMath\.random\b/],
  ['timer', /\b(?:setTimeout|setInterval|setImmediate)\b/],
  ['async', /\basync\b/],
  ['await', /\bawait\b/],
];

/** Strips comments so that prose about a rule ("no Date.now") is not taken for a use of it. */
function codeOf(line: string, inBlock: { value: boolean }): string {
  let code = '';
  let i = 0;
  while (i < line.length) {
    if (inBlock.value) {
      const end = line.indexOf('*/', i);
      if (end < 0) return code;
      inBlock.value = false;
      i = end + 2;
    } else if (line.startsWith('/*', i)) {
      inBlock.value = true;
      i += 2;
    } else if (line.startsWith('//', i)) {
      return code;
    } else {
      code += line[i];
      i++;
    }
  }
  return code;
}

function scanForImpurity(source: string): ReadonlyArray<Violation> {
  const violations: Violation[] = [];
  const inBlock = { value: false };
  source.split('\n').forEach((raw, index) => {
    const code = codeOf(raw, inBlock);
    const imported = FORBIDDEN_IMPORT.exec(code);
    if (imported !== null) violations.push({ rule: `import ${imported[1]}`, line: index + 1, text: raw.trim() });
    for (const [rule, pattern] of FORBIDDEN_CALLS) if (pattern.test(code)) violations.push({ rule, line: index + 1, text: raw.trim() });
  });
  return violations;
}

function modelSources(dir: string): ReadonlyArray<string> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modelSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('purity of model/', () => {
  test('the scanner finds each forbidden construct in a bad sample', () => {
    const bad = [
      "import { readFileSync } from 'node:fs';",
      "import pg from 'pg';",
      "import { run } from '../sim/run.ts';",
      "import type { Store } from '../../adapters/port.ts';",
      "const m = await import('../cli/main.ts');",
      "export { report } from '../reports/html.ts';",
      'const t = Date.now();',
      'const d = new Date(0);',
      'const r = Math.random();',
      'setTimeout(() => 0, 1);',
      'export async function f() { await g(); }',
    ].join('\n');
    const rules = scanForImpurity(bad).map((v) => v.rule);
    expect(rules).toEqual([
      'import node:fs',
      'import pg',
      'import ../sim/run.ts',
      'import ../../adapters/port.ts',
      'import ../cli/main.ts',
      'await',
      'import ../reports/html.ts',
      'Date.now',
      'new Date(',
      'Math.random',
      'timer',
      'async',
      'await',
    ]);
  });

  test('the scanner accepts pure code and ignores comments', () => {
    const good = [
      "import { assert } from './assert.ts';",
      "import type { Command } from './commands.ts';",
      '// no Date.now, no Math.random, never async',
      '/* setTimeout is forbidden',
      '   and so is new Date( */',
      'export const asyncish = 1; const dated = 2;',
    ].join('\n');
    expect(scanForImpurity(good)).toEqual([]);
  });

  test('no file in model/ imports I/O, sim, adapters, cli or reports, or reads clocks, randomness, timers or async', () => {
    const root = join(import.meta.dirname, '..');
    const files = modelSources(join(root, 'model'));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => scanForImpurity(readFileSync(file, 'utf8')).map((v) => `${relative(root, file)}:${v.line} ${v.rule}: ${v.text}`));
    expect(found).toEqual([]);
  });
});
