// docs/ARCHITECTURE.md "Layers": model ← faults ← scenarios, adapters ← sim ← mutants ← backends ← campaign ← reports ← cli.
// A file may import its own layer and the layers to its left, never one to its right; scenarios/
// and adapters/ stand side by side, both reading the fault vocabulary (faults/). Imports are read
// by TypeScript's own pre-processor (static imports, `export … from`, dynamic `import()` with a
// literal path, `require`).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const RANK: Readonly<Record<string, number>> = { model: 0, faults: 1, scenarios: 2, adapters: 2, sim: 3, mutants: 4, backends: 5, campaign: 6, reports: 7, cli: 8 };

const rankOf = (file: string): number | undefined => RANK[file.split('/')[0]!];

interface Source {
  /** Path from the repository root, with forward slashes. */
  readonly file: string;
  readonly text: string;
}

/** Every import in `sources` that points to a layer right of the importing file's own. */
function upwardImports(sources: ReadonlyArray<Source>): string[] {
  const found: string[] = [];
  for (const { file, text } of sources) {
    const own = rankOf(file);
    if (own === undefined) continue;
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName));
      const rank = rankOf(target);
      if (rank !== undefined && rank > own) found.push(`${file} imports ${target}`);
    }
  }
  return found;
}

/** Files of `sources` that import one another, directly or through others (type imports count). */
function importCycles(sources: ReadonlyArray<Source>): string[][] {
  const known = new Set(sources.map((s) => s.file));
  const edges = new Map(
    sources.map(({ file, text }) => [
      file,
      ts.preProcessFile(text, true, true).importedFiles.flatMap((ref) => {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName));
        return ref.fileName.startsWith('.') && known.has(target) ? [target] : [];
      }),
    ]),
  );
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [...(edges.get(from) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === to) return true;
      if (!seen.has(next)) (seen.add(next), stack.push(...(edges.get(next) ?? [])));
    }
    return false;
  };
  const cycles: string[][] = [];
  const placed = new Set<string>();
  for (const { file } of sources) {
    if (placed.has(file) || !reaches(file, file)) continue;
    const cycle = sources.map((s) => s.file).filter((other) => other === file || (reaches(file, other) && reaches(other, file)));
    for (const member of cycle) placed.add(member);
    cycles.push(cycle);
  }
  return cycles;
}

function* tsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* tsFiles(full);
    else if (entry.endsWith('.ts')) yield full;
  }
}

const sources = (): Source[] =>
  Object.keys(RANK).flatMap((layer) => [...tsFiles(path.join(ROOT, layer))].map((full) => ({ file: path.relative(ROOT, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') })));

describe('layering', () => {
  test('no import points up the layers', () => {
    const all = sources();
    expect(all.length).toBeGreaterThan(200);
    expect(upwardImports(all)).toEqual([]);
  });

  test('no import cycle anywhere, type-only ones included (the nemesis sees an interface, not the engine)', () => {
    const checked = sources();
    expect(checked.filter((s) => s.file.startsWith('sim/')).length).toBeGreaterThan(40);
    expect(checked.filter((s) => s.file.startsWith('model/')).length).toBeGreaterThan(40);
    expect(checked.filter((s) => s.file.startsWith('reports/')).length).toBeGreaterThan(10);
    expect(checked.filter((s) => s.file.startsWith('faults/')).length).toBeGreaterThan(30);
    expect(checked.filter((s) => s.file.startsWith('mutants/')).length).toBeGreaterThan(60);
    expect(checked.filter((s) => s.file.startsWith('adapters/postgres/interleave/')).length).toBeGreaterThan(5);
    expect(checked.filter((s) => s.file.startsWith('campaign/check/')).length).toBeGreaterThan(10);
    expect(importCycles(checked)).toEqual([]);
    const planted = [
      { file: 'sim/a.ts', text: "import type { B } from './b.ts';" },
      { file: 'sim/b.ts', text: "import { C } from './c.ts';" },
      { file: 'sim/c.ts', text: "export { A } from './a.ts';" },
      { file: 'sim/d.ts', text: "import './a.ts';" },
    ];
    expect(importCycles(planted)).toEqual([['sim/a.ts', 'sim/b.ts', 'sim/c.ts']]);
  });

  test('a planted upward import is found, in each form an import can take', () => {
    const planted = [
      { file: 'model/planted.ts', text: "import { Sim } from '../sim/engine.ts';" },
      { file: 'adapters/postgres/planted.ts', text: "export { x } from '../../mutants/index.ts';" },
      { file: 'mutants/store/planted.ts', text: "export { x } from '../../campaign/shard-plan.ts';" },
      { file: 'sim/planted.ts', text: "const m = await import('../reports/index.ts');" },
      { file: 'reports/planted.ts', text: "import type { X } from '../cli/errors.ts';" },
      { file: 'faults/planted.ts', text: "import type { Node } from '../sim/sim-node.ts';" },
      { file: 'faults/planted-options.ts', text: "import type { CoordinationOptions } from '../scenarios/coordination-options.ts';" },
      // Allowed: own layer, a layer to the left, side by side, and packages.
      { file: 'scenarios/ok.ts', text: "import '../adapters/port.ts'; import '../model/scope.ts'; import './schema.ts'; import 'zod';" },
      { file: 'scenarios/faults-ok.ts', text: "import '../faults/index.ts';" },
      { file: 'adapters/faults/ok.ts', text: "import '../../faults/records.ts';" },
      { file: 'mutants/sql/ok.ts', text: "import '../../adapters/postgres/store.ts'; import '../../sim/run.ts'; import '../entry.ts';" },
      { file: 'faults/ok.ts', text: "import '../model/history.ts'; import './package.ts';" },
    ];
    expect(upwardImports(planted)).toEqual([
      'model/planted.ts imports sim/engine.ts',
      'adapters/postgres/planted.ts imports mutants/index.ts',
      'mutants/store/planted.ts imports campaign/shard-plan.ts',
      'sim/planted.ts imports reports/index.ts',
      'reports/planted.ts imports cli/errors.ts',
      'faults/planted.ts imports sim/sim-node.ts',
      'faults/planted-options.ts imports scenarios/coordination-options.ts',
    ]);
  });
});
