// The seed sections the repository cites, so that docs/REQUIREMENTS.md can list every one of them
// (test/docs.test.ts fails on a cited section the document lacks).
//
//   npx tsx scripts/cited-sections.ts            every cited section, with the files that cite it
//   npx tsx scripts/cited-sections.ts --missing  only those docs/REQUIREMENTS.md lacks (exit 1 if any)
//
// A citation is `§n` or a range `§n–§m` (also `§n–m`, `§n-m`). Its seed is read the way a person
// reads the comment: the nearest `000` / `001` before it on the same line (`000 §281`,
// `seed 001 §92–§95, §164`), else the nearest one earlier in the same comment block, else the seed
// the file is about by its path (coordination, role epochs and guards, membership, quorum,
// elections: 001; everything else: 000). A number above the last section of seed 000 (§319) can
// only be seed 001's. Seeds 002 and 003 have no numbered sections; a `§n` after one of them still
// belongs to 000 or 001. Where this reading is wrong, name the seed in the comment (`001 §86`),
// or, where the comment cannot change, add the file to SEED_OF below.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export type Seed = '000' | '001';

export interface Citation {
  readonly seed: Seed;
  readonly section: number;
  /** Repository-relative path, with forward slashes. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
}

/** The highest section number of each numbered seed document. */
export const SECTION_MAX: Readonly<Record<Seed, number>> = { '000': 319, '001': 343 };

/** Directories never scanned: dependencies, build output, run output, and the documents that list the sections. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', '.git', 'docs']);
const SCANNED_FILE = /\.(?:ts|mts|cts|js|mjs|cjs|md|json|sh)$/;
const SKIPPED_FILES = new Set(['package-lock.json']);
/** These files write citations as examples of the notation; they cite nothing. */
const NOTATION_FILES = new Set(['scripts/cited-sections.ts', 'scripts/requirements-table.ts', 'test/docs.test.ts']);

/** Paths whose bare citations are about seed 001 (coordination, role epochs, membership) when the file says no seed. */
const SEED_001_PATH = /coordination|raft|role-(?:epoch|guard)|cluster-membership|node-incarnation|leader|quorum|membership|learner|election|stale-leader|standalone|maintenance/;

/**
 * Citations whose seed the reading above gets wrong, by file and section (the comment names both
 * seeds in a way no simple rule follows, for example "seed 001 ... (and the 315/338 acceptance tests)").
 */
const SEED_OF: Readonly<Record<string, Readonly<Record<number, Seed>>>> = {
  'test/reports/index-html.browser.test.ts': { 315: '000' },
  'sim/controller.ts': { 64: '000' },
};

const TOKEN = /\bseeds?\s+(00[0-3])\b|\b(00[0-3])\s*§|§\s*(\d+)(?:\s*[–-]\s*§?\s*(\d+))?/gi;

interface Token {
  readonly kind: 'seed' | 'section';
  readonly seed?: string;
  readonly from?: number;
  readonly to?: number;
}

function tokensOf(line: string): Token[] {
  const tokens: Token[] = [];
  for (const match of line.matchAll(TOKEN)) {
    const seed = match[1] ?? match[2];
    if (seed !== undefined) tokens.push({ kind: 'seed', seed });
    // `000 §281`: the seed token consumed the `§`; read the number right after it.
    if (match[2] !== undefined) {
      const rest = /^\s*(\d+)(?:\s*[–-]\s*§?\s*(\d+))?/.exec(line.slice((match.index ?? 0) + match[0].length));
      if (rest !== null) tokens.push({ kind: 'section', from: Number(rest[1]), to: Number(rest[2] ?? rest[1]) });
      continue;
    }
    if (match[3] !== undefined) tokens.push({ kind: 'section', from: Number(match[3]), to: Number(match[4] ?? match[3]) });
  }
  return tokens;
}

function isComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('#');
}

const isNumbered = (seed: string | undefined): seed is Seed => seed === '000' || seed === '001';

/** The seed a file means by a bare `§n` when nothing near it says: seed 001 for its topics, else the main specification. */
function fileSeed(file: string): Seed {
  return SEED_001_PATH.test(file) ? '001' : '000';
}

/** Every seed 000/001 section cited in one file's text. */
export function citationsIn(text: string, file: string): Citation[] {
  if (!text.includes('§')) return [];
  const lines = text.split('\n');
  const byFile = fileSeed(file);
  const citations: Citation[] = [];
  // The seed named last in the current comment block (reset when the block ends).
  let blockSeed: Seed | null = null;
  lines.forEach((line, index) => {
    if (!isComment(line)) blockSeed = null;
    let lineSeed: Seed | null = null;
    for (const token of tokensOf(line)) {
      if (token.kind === 'seed') {
        if (isNumbered(token.seed)) lineSeed = token.seed;
        continue;
      }
      const from = Math.min(token.from!, token.to!);
      const to = Math.max(token.from!, token.to!);
      const seed = lineSeed ?? blockSeed ?? (from > SECTION_MAX['000'] ? '001' : byFile);
      for (let section = from; section <= to; section++) citations.push({ seed: SEED_OF[file]?.[section] ?? seed, section, file, line: index + 1 });
    }
    if (isComment(line) && lineSeed !== null) blockSeed = lineSeed;
  });
  return citations;
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(path.join(root, dir))) {
    const relative = dir === '' ? entry : `${dir}/${entry}`;
    if (statSync(path.join(root, relative)).isDirectory()) {
      if (!SKIPPED_DIRS.has(entry)) walk(root, relative, out);
    } else if (SCANNED_FILE.test(entry) && !SKIPPED_FILES.has(entry) && !NOTATION_FILES.has(relative)) {
      out.push(relative);
    }
  }
}

/** The files scanned for citations and for references to documents. */
export function repositoryFiles(root: string): string[] {
  const files: string[] = [];
  walk(root, '', files);
  return files.sort();
}

/** Every citation in the repository. */
export function citedSections(root: string): Citation[] {
  return repositoryFiles(root).flatMap((file) => citationsIn(readFileSync(path.join(root, file), 'utf8'), file));
}

/** `000 §281`: how a section is written in docs/REQUIREMENTS.md. */
export function sectionKey(seed: Seed, section: number): string {
  return `${seed} §${section}`;
}

/**
 * The sections docs/REQUIREMENTS.md lists: each entry is a table row or heading that opens with
 * `000 §281`, or with a range `000 §271–§276` that lists every section in it.
 */
export function listedSections(markdown: string): Set<string> {
  const listed = new Set<string>();
  for (const match of markdown.matchAll(/^(?:\|\s*|#+\s*)(000|001) §(\d+)(?:–§(\d+))?/gm)) {
    const from = Number(match[2]);
    const to = Number(match[3] ?? match[2]);
    for (let section = from; section <= to; section++) listed.add(sectionKey(match[1] as Seed, section));
  }
  return listed;
}

function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const citations = citedSections(root);
  const bySection = new Map<string, Set<string>>();
  for (const c of citations) {
    const key = sectionKey(c.seed, c.section);
    if (!bySection.has(key)) bySection.set(key, new Set());
    bySection.get(key)!.add(c.file);
  }
  const order = (key: string) => Number(key.slice(0, 3)) * 1000 + Number(key.slice(5));
  const keys = [...bySection.keys()].sort((a, b) => order(a) - order(b));
  const outOfRange = citations.filter((c) => c.section < 1 || c.section > SECTION_MAX[c.seed]);
  for (const c of outOfRange) process.stderr.write(`${c.file}:${c.line}: ${sectionKey(c.seed, c.section)} is not a section of seed ${c.seed}\n`);
  if (process.argv.includes('--missing')) {
    const listed = listedSections(readFileSync(path.join(root, 'docs/REQUIREMENTS.md'), 'utf8'));
    const missing = keys.filter((key) => !listed.has(key));
    for (const key of missing) process.stdout.write(`${key}  ${[...bySection.get(key)!].join(' ')}\n`);
    process.exitCode = missing.length > 0 || outOfRange.length > 0 ? 1 : 0;
    return;
  }
  for (const key of keys) process.stdout.write(`${key}  ${[...bySection.get(key)!].join(' ')}\n`);
  process.stdout.write(`${keys.length} sections cited (${keys.filter((k) => k.startsWith('000')).length} of seed 000, ${keys.filter((k) => k.startsWith('001')).length} of seed 001)\n`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
