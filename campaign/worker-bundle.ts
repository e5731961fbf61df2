// A worker thread started from the TypeScript sources loads its entry as one JavaScript bundle
// instead of transforming every source file anew through tsx, which made each worker of a sweep
// pool take most of a second to start. The bundle is the same code (esbuild, the transformer tsx
// itself uses, reading the same tsconfig), kept under the checkout's node_modules/.cache beside a
// manifest: the SHA-256 of the very bytes esbuild read of every source (and of the tsconfig), and
// of the bundle itself. It is used only while every one of them is unchanged, so a worker never
// runs other code than the sources hold; it is built again as soon as one changes. The cache's
// name covers the esbuild version, the Node.js major version and the build options. Packages stay
// outside the bundle and load as they would. Compiled JavaScript (dist/) needs no bundle. Where no
// bundle can be made (esbuild absent, a cache that cannot be written) the caller loads the sources
// through tsx as before: slower, the same runs.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildOptions, Plugin } from 'esbuild';
import { writeFileAtomic } from './atomic-write.ts';

/** What the bundle was made of: each source's hash by path, and the bundle's own. */
interface Manifest {
  readonly sources: Readonly<Record<string, string>>;
  readonly bundle: string;
}

const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const bundles = new Map<string, Promise<string | null>>();

/** The file URL of a fresh bundle of `entry` (a `.ts` file URL), or null when none can be made; once per process. */
export function bundledEntry(entry: string): Promise<string | null> {
  let found = bundles.get(entry);
  if (found === undefined) {
    found = freshBundle(fileURLToPath(entry)).catch(() => null);
    bundles.set(entry, found);
  }
  return found;
}

/** The bundle of `file`, built again when a source it holds, its tsconfig or the bundle itself changed. */
export async function freshBundle(file: string): Promise<string | null> {
  const cache = cacheDirFor(file);
  if (cache === null) return null;
  const esbuild = (await import(pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href)) as typeof import('esbuild');
  const workDir = path.dirname(file);
  const options: BuildOptions = {
    entryPoints: [file],
    absWorkingDir: workDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    write: false,
    logLevel: 'silent',
  };
  const key = sha256(JSON.stringify([file, esbuild.version, options])).slice(0, 16);
  const out = path.join(cache, `${path.basename(file, '.ts')}-${key}.mjs`);
  const manifestFile = `${out}.manifest.json`;
  if (await unchanged(out, manifestFile)) return pathToFileURL(out).href;
  const sources: Record<string, string> = {};
  const tsconfig = nearest(workDir, 'tsconfig.json');
  if (tsconfig !== null) sources[tsconfig] = sha256(await readFile(tsconfig));
  const result = await esbuild.build({ ...options, outfile: out, plugins: [hashing(sources)] });
  const code = result.outputFiles?.find((f) => f.path === out)?.text;
  if (code === undefined) return null;
  await mkdir(cache, { recursive: true });
  await writeFileAtomic(out, code);
  // The manifest last: a reader that finds it finds the bundle it describes, or sees the mismatch.
  await writeFileAtomic(manifestFile, JSON.stringify({ sources, bundle: sha256(code) } satisfies Manifest));
  return pathToFileURL(out).href;
}

/** Loads every source itself (packages stay outside), so that what is hashed is exactly what esbuild bundled. */
function hashing(sources: Record<string, string>): Plugin {
  return {
    name: 'source-hashes',
    setup(build) {
      build.onLoad({ filter: /\.(?:[cm]?[jt]s|json)$/ }, async (args) => {
        const contents = await readFile(args.path);
        sources[args.path] = sha256(contents);
        const loader = args.path.endsWith('.json') ? 'json' : /\.[cm]?js$/.test(args.path) ? 'js' : 'ts';
        return { contents, loader };
      });
    },
  };
}

/** `<nearest node_modules above file>/.cache/concurrency-testbed`, where the bundle's packages resolve as the sources' do. */
function cacheDirFor(file: string): string | null {
  const modules = nearest(path.dirname(file), 'node_modules');
  return modules === null ? null : path.join(modules, '.cache', 'concurrency-testbed');
}

/** `name` in `dir` or the nearest folder above it that holds one. */
function nearest(dir: string, name: string): string | null {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, name))) return path.join(at, name);
    if (path.dirname(at) === at) return null;
  }
}

/** The bundle and every source it was made of are as the manifest says, byte for byte. */
async function unchanged(out: string, manifestFile: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
    const files = Object.entries(manifest.sources);
    if (files.length === 0 || sha256(await readFile(out)) !== manifest.bundle) return false;
    const now = await Promise.all(files.map(async ([source]) => sha256(await readFile(source))));
    return files.every(([, hash], i) => now[i] === hash);
  } catch {
    return false;
  }
}
