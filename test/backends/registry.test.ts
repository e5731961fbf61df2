// A new backend is its own folder and one line in the list (backends/index.ts): everything the
// commands ask of a backend (which name is it, may it be interleaved, how is it opened, what do
// the messages list) comes from the list, and no command or report decides by a backend's name.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendRegistry, BACKENDS } from '../../backends/index.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';
import { countedMemory, opened } from './fixtures/counted-memory/backend.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The built-in list with the trivial backend added as one line, before the module path (matched last). */
const registry = backendRegistry([...BACKENDS.slice(0, -1), countedMemory, BACKENDS.at(-1)!]);

describe('a new backend', () => {
  it('is named, listed and refused interleaving from its declaration alone', async () => {
    expect(registry.backendOf('counted-memory')).toBe(countedMemory);
    expect(registry.backendChoices()).toContain('exec:<command>, counted-memory or <path to a store module>');
    expect(registry.backendSyntaxes()).toContain('| counted-memory |');
    await expect(registry.resolveAdapter('counted-memory', { interleave: 'random' })).rejects.toThrow(/--interleave needs a store on PostgreSQL .*, not counted-memory/);
    await expect(registry.resolveAdapter('counted-mem')).rejects.toThrow(/unknown adapter 'counted-mem': expected .*counted-memory/);
  });

  it('opens through the list and runs a scenario like any built-in store', async () => {
    const adapter = await registry.resolveAdapter('counted-memory');
    const before = opened.stores;
    const result = await runScenario({ scenario: loadScenario('stale-holder'), seed: 1, store: adapter.store });
    await adapter.close();
    expect(opened.stores).toBeGreaterThan(before);
    expect(result.violations).toEqual([]);
    // The same run on the built-in memory store: the trivial backend is that store, so the trace agrees.
    const memory = await registry.resolveAdapter('memory');
    const reference = await runScenario({ scenario: loadScenario('stale-holder'), seed: 1, store: memory.store });
    expect(result.traceHash).toBe(reference.traceHash);
  });
});

describe('the commands and the reports', () => {
  const files = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));

  it('name no backend and build no adapter spec: they ask the list', () => {
    // 'memory' and 'mutant' are also a gate stage and a kind of verdict row, so they are left out;
    // a backend named by a prefix (`exec:`, `mutant:`, …) is named by testing or building that prefix.
    const kinds = BACKENDS.map((b) => b.kind).filter((k) => k !== 'memory' && k !== 'mutant');
    const prefixes = BACKENDS.flatMap((b) => (/^[a-z-]+:/.exec(b.syntax) ?? []).map((p) => p));
    expect(kinds.length).toBeGreaterThanOrEqual(4);
    expect(prefixes).toEqual(['mutant:', 'postgres-mutant:', 'exec:']);
    const named = ['cli', 'reports'].flatMap(files).flatMap((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      return [
        ...kinds.filter((k) => text.includes(`'${k}'`)).map((k) => `${file} names '${k}'`),
        ...prefixes.filter((p) => text.includes(`startsWith('${p}')`) || text.includes(`\`${p}\${`) || text.includes(`'${p}'.length`)).map((p) => `${file} tests or builds ${p}`),
      ];
    });
    expect(named).toEqual([]);
  });
});
