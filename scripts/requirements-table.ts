// Rebuilds the tables of docs/REQUIREMENTS.md from the code: one row per seed 000/001 section that
// the repository cites (scripts/cited-sections.ts), in section order. The statement of each row is
// written by hand and kept as it is; the two other columns are computed:
// - "Proven by": the scenarios whose `sources` name the section, the history checkers, the mutants
//   whose `source` names it, and the test files that cite it;
// - "Also cited in": every other file that cites it (the code that implements the rule).
// A newly cited section gets a row whose statement says it is missing; write it.
//
//   npx tsx scripts/requirements-table.ts           rewrite docs/REQUIREMENTS.md
//   npx tsx scripts/requirements-table.ts --check   exit 1 when the file would change

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MUTANTS } from '../mutants/index.ts';
import { INVARIANT_NAMES } from '../model/checkers/index.ts';
import { listScenarios } from '../scenarios/index.ts';
import { citationsIn, citedSections, sectionKey, type Citation, type Seed } from './cited-sections.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOC = path.join(ROOT, 'docs/REQUIREMENTS.md');
export const MISSING_STATEMENT = '(statement missing: write one)';
const CODE_FILES_SHOWN = 6;

interface Proof {
  readonly scenarios: Set<string>;
  readonly checkers: Set<string>;
  readonly mutants: Set<string>;
  readonly tests: Set<string>;
  readonly code: Set<string>;
}

const emptyProof = (): Proof => ({ scenarios: new Set(), checkers: new Set(), mutants: new Set(), tests: new Set(), code: new Set() });

/** The sections a `sources` / `source` string names (`000 §281`, `000 §160–162`, `000 §200–§204, §290`). */
function sectionsOf(source: string): Citation[] {
  return citationsIn(source, 'source');
}

const CHECKER_NAMES = new Set<string>([...INVARIANT_NAMES, 'differential']);

export function collect(): Map<string, Proof> {
  const proofs = new Map<string, Proof>();
  const proofOf = (seed: Seed, section: number): Proof => {
    const key = sectionKey(seed, section);
    if (!proofs.has(key)) proofs.set(key, emptyProof());
    return proofs.get(key)!;
  };
  for (const c of citedSections(ROOT)) {
    const checker = /^model\/checkers\/([a-z-]+)\.ts$/.exec(c.file)?.[1];
    const proof = proofOf(c.seed, c.section);
    if (checker !== undefined && CHECKER_NAMES.has(checker)) proof.checkers.add(checker);
    else if (/\.test\.ts$/.test(c.file) || c.file === 'conformance/suite.ts') proof.tests.add(c.file);
    else if (c.file === 'scenarios/catalog.ts' || /^mutants\/store\//.test(c.file)) continue; // counted by name below
    else proof.code.add(c.file);
  }
  for (const scenario of listScenarios()) {
    for (const source of scenario.sources) for (const c of sectionsOf(source)) proofOf(c.seed, c.section).scenarios.add(scenario.name);
  }
  for (const mutant of MUTANTS) for (const c of sectionsOf(mutant.source)) proofOf(c.seed, c.section).mutants.add(mutant.name);
  return proofs;
}

const code = (names: Iterable<string>) => [...names].sort().map((n) => `\`${n}\``).join(', ');

function provenBy(proof: Proof | undefined): string {
  if (proof === undefined) return '—';
  const parts = [
    proof.scenarios.size > 0 ? `scenarios ${code(proof.scenarios)}` : '',
    proof.checkers.size > 0 ? `checkers ${code(proof.checkers)}` : '',
    proof.mutants.size > 0 ? `mutants ${code(proof.mutants)}` : '',
    proof.tests.size > 0 ? `tests ${code(proof.tests)}` : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? '—' : parts.join('; ');
}

function citedIn(proof: Proof | undefined): string {
  if (proof === undefined || proof.code.size === 0) return '—';
  const files = [...proof.code].sort();
  const shown = files.slice(0, CODE_FILES_SHOWN).map((f) => `\`${f}\``).join(', ');
  return files.length > CODE_FILES_SHOWN ? `${shown} and ${files.length - CODE_FILES_SHOWN} more` : shown;
}

const ROW = /^\| (000|001) §(\d+)(?:–§(\d+))? \| (.*?) \| .* \| .* \|$/;
const HEADER = '| Section | Requirement | Proven by | Also cited in |\n|---|---|---|---|';

/** Rewrites the table between `<!-- table SEED -->` and `<!-- end table -->` for each seed. */
export function rebuild(markdown: string, proofs: Map<string, Proof>): string {
  return markdown.replace(/<!-- table (000|001) -->\n[\s\S]*?<!-- end table -->/g, (_, seed: Seed) => {
    const region = markdown.slice(markdown.indexOf(`<!-- table ${seed} -->`));
    const statements = new Map<number, { to: number; text: string }>();
    for (const line of region.slice(0, region.indexOf('<!-- end table -->')).split('\n')) {
      const m = ROW.exec(line);
      if (m !== null) statements.set(Number(m[2]), { to: Number(m[3] ?? m[2]), text: m[4]! });
    }
    const covered = new Set<number>();
    for (const [from, { to }] of statements) for (let s = from; s <= to; s++) covered.add(s);
    for (const key of proofs.keys()) {
      if (!key.startsWith(seed)) continue;
      const section = Number(key.slice(5));
      if (!covered.has(section)) statements.set(section, { to: section, text: MISSING_STATEMENT });
    }
    const rows = [...statements.entries()]
      .sort(([a], [b]) => a - b)
      .map(([from, { to, text }]) => {
        const merged = emptyProof();
        for (let s = from; s <= to; s++) {
          const p = proofs.get(sectionKey(seed, s));
          if (p === undefined) continue;
          for (const k of Object.keys(merged) as Array<keyof Proof>) for (const v of p[k]) merged[k].add(v);
        }
        const label = to === from ? `${seed} §${from}` : `${seed} §${from}–§${to}`;
        return `| ${label} | ${text} | ${provenBy(merged)} | ${citedIn(merged)} |`;
      });
    return `<!-- table ${seed} -->\n${HEADER}\n${rows.join('\n')}\n<!-- end table -->`;
  });
}

function main(): void {
  const before = readFileSync(DOC, 'utf8');
  const after = rebuild(before, collect());
  if (process.argv.includes('--check')) {
    if (after !== before) {
      process.stderr.write('docs/REQUIREMENTS.md is out of date: run npx tsx scripts/requirements-table.ts\n');
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(DOC, after);
  const missing = after.split('\n').filter((line) => line.includes(MISSING_STATEMENT)).length;
  process.stdout.write(`docs/REQUIREMENTS.md rebuilt${missing > 0 ? `; ${missing} rows need a statement` : ''}\n`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
