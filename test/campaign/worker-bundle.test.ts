// A sweep pool started from the TypeScript sources starts its workers from one bundle of their
// entry (campaign/worker-bundle.ts): made once, kept while every source it holds is unchanged,
// made again as soon as one changes, so a worker never runs older code than the sources.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundledEntry, freshBundle } from '../../campaign/worker-bundle.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('worker-bundle-');

/** A little project: entry.ts importing dep.ts, with a node_modules folder for the cache. */
function project(): { entry: string; dep: string } {
  const dir = scratch();
  mkdirSync(path.join(dir, 'node_modules'));
  const entry = path.join(dir, 'entry.ts');
  const dep = path.join(dir, 'dep.ts');
  writeFileSync(dep, 'export const answer: number = 1;\n');
  writeFileSync(entry, "import { answer } from './dep.ts';\nexport const doubled: number = answer * 2;\n");
  return { entry, dep };
}

describe('worker bundle', () => {
  it('bundles the sweep pool with the simulator it runs, under the checkout’s node_modules cache', async () => {
    const url = await bundledEntry(pathToFileURL(path.resolve(import.meta.dirname, '../../campaign/sweep-pool.ts')).href);
    expect(url).not.toBeNull();
    const file = fileURLToPath(url!);
    expect(file).toContain(path.join('node_modules', '.cache', 'concurrency-testbed'));
    const inputs = JSON.parse(readFileSync(`${file}.inputs.json`, 'utf8')) as Array<[string, number, number]>;
    expect(inputs.map(([f]) => path.relative(path.resolve(import.meta.dirname, '../..'), f))).toEqual(expect.arrayContaining(['sim/engine.ts', 'campaign/sweep-pool.ts']));
  });

  it('is kept while its sources are unchanged and made again when one changes', async () => {
    const { entry, dep } = project();
    const first = await freshBundle(entry);
    expect(first).not.toBeNull();
    const file = fileURLToPath(first!);
    expect(((await import(`${first!}?v=1`)) as { doubled: number }).doubled).toBe(2);
    const written = readFileSync(file, 'utf8');
    // Unchanged sources: the same file, not written again.
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect(await freshBundle(entry)).toBe(first);
    expect(readFileSync(file, 'utf8')).toBe(written);
    // A source changed (same size, a new time): made again, with the new code.
    writeFileSync(dep, 'export const answer: number = 5;\n');
    utimesSync(dep, new Date(2_000_000), new Date(2_000_000));
    expect(await freshBundle(entry)).toBe(first);
    expect(((await import(`${first!}?v=2`)) as { doubled: number }).doubled).toBe(10);
  });

  it('is not made where there is no node_modules to keep it in', async () => {
    const dir = scratch();
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(entry, 'export const x = 1;\n');
    // The scratch directory is under the system's temporary directory, with no node_modules above it.
    expect(await freshBundle(entry)).toBeNull();
  });
});
