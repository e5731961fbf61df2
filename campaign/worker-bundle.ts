// A worker thread started from the TypeScript sources loads its entry as one JavaScript bundle
// instead of transforming every source file anew through tsx, which made each worker of a sweep
// pool take most of a second to start. The bundle is the same code (esbuild, the transformer tsx
// itself uses, reading the same tsconfig), kept under the checkout's node_modules/.cache with the
// size and modification time of every source it holds: it is built again as soon as one of them
// changes. Packages stay outside it and load as they would. Compiled JavaScript (dist/) needs no
// bundle. Where no bundle can be made (esbuild absent, a cache that cannot be written) the caller
// loads the sources through tsx as before: slower, the same runs.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeFileAtomic } from './atomic-write.ts';

/** Each source of a bundle: its absolute path, size and modification time when it was bundled. */
type Input = readonly [file: string, size: number, mtimeMs: number];

const bundles = new Map<string, Promise<string | null>>();

/** The file URL of a fresh bundle of `entry` (a `.ts` file URL), or null when none can be made. */
export function bundledEntry(entry: string): Promise<string | null> {
  let found = bundles.get(entry);
  if (found === undefined) {
    found = freshBundle(fileURLToPath(entry)).catch(() => null);
    bundles.set(entry, found);
  }
  return found;
}

/** The bundle of `file`, built again when a source it holds changed (once per process: bundledEntry). */
export async function freshBundle(file: string): Promise<string | null> {
  const cache = cacheDirFor(file);
  if (cache === null) return null;
  const key = createHash('sha256').update(file).digest('hex').slice(0, 12);
  const out = path.join(cache, `${path.basename(file, '.ts')}-${key}.mjs`);
  const manifest = `${out}.inputs.json`;
  if (existsSync(out) && (await unchanged(manifest))) return pathToFileURL(out).href;
  const esbuild = (await import(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href)) as typeof import('esbuild');
  const workDir = path.dirname(file);
  const result = await esbuild.build({
    entryPoints: [file],
    absWorkingDir: workDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    write: false,
    metafile: true,
    outfile: out,
    logLevel: 'silent',
  });
  const code = result.outputFiles.find((f) => f.path === out)?.text;
  if (code === undefined) return null;
  const inputs = await Promise.all(Object.keys(result.metafile.inputs).map((input) => inputOf(path.resolve(workDir, input))));
  await mkdir(cache, { recursive: true });
  await writeFileAtomic(out, code);
  await writeFileAtomic(manifest, JSON.stringify(inputs));
  return pathToFileURL(out).href;
}

/** `<nearest node_modules above file>/.cache/concurrency-testbed`, where the bundle's packages resolve as the sources' do. */
function cacheDirFor(file: string): string | null {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const modules = path.join(dir, 'node_modules');
    if (existsSync(modules)) return path.join(modules, '.cache', 'concurrency-testbed');
    if (path.dirname(dir) === dir) return null;
  }
}

async function inputOf(file: string): Promise<Input> {
  const s = await stat(file);
  return [file, s.size, s.mtimeMs];
}

/** Every source the bundle was made of is still there, of the same size and modification time. */
async function unchanged(manifest: string): Promise<boolean> {
  try {
    const inputs = JSON.parse(await readFile(manifest, 'utf8')) as Input[];
    if (!Array.isArray(inputs) || inputs.length === 0) return false;
    const now = await Promise.all(inputs.map(([file]) => inputOf(file)));
    return now.every(([, size, mtimeMs], i) => size === inputs[i]![1] && mtimeMs === inputs[i]![2]);
  } catch {
    return false;
  }
}
