// A sweep pool started from the TypeScript sources starts its workers from one bundle of their
// entry (campaign/worker-bundle.ts): made once, kept while every source it holds and the bundle
// itself are unchanged byte for byte, made again as soon as one changes, so a worker never runs
// other code than the sources hold.
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
    const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, 'utf8')) as { sources: Record<string, string> };
    const root = path.resolve(import.meta.dirname, '../..');
    expect(Object.keys(manifest.sources).map((f) => path.relative(root, f))).toEqual(expect.arrayContaining(['sim/engine.ts', 'campaign/sweep-pool.ts', 'tsconfig.json']));
  });

  it('is kept while its sources are unchanged and made again when one changes', async () => {
    const { entry, dep } = project();
    const first = await freshBundle(entry);
    expect(first).not.toBeNull();
    const file = fileURLToPath(first!);
    expect(((await import(`${first!}?v=1`)) as { doubled: number }).doubled).toBe(2);
    // Unchanged sources: the same file, not written again (its time stays where it was set).
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect(await freshBundle(entry)).toBe(first);
    expect(statSync(file).mtimeMs).toBe(1_000_000);
    // A source changed, even with its size and time kept: made again, with the new code.
    const kept = statSync(dep);
    writeFileSync(dep, 'export const answer: number = 5;\n');
    utimesSync(dep, kept.atime, kept.mtime);
    expect(await freshBundle(entry)).toBe(first);
    expect(((await import(`${first!}?v=2`)) as { doubled: number }).doubled).toBe(10);
    // A bundle changed in the cache is not trusted either.
    writeFileSync(file, 'export const doubled = 0;\n');
    expect(await freshBundle(entry)).toBe(first);
    expect(((await import(`${first!}?v=3`)) as { doubled: number }).doubled).toBe(10);
  });

  it('is not made where there is no node_modules to keep it in', async () => {
    const dir = scratch();
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(entry, 'export const x = 1;\n');
    // The scratch directory is under the system's temporary directory, with no node_modules above it.
    expect(await freshBundle(entry)).toBeNull();
  });
});
