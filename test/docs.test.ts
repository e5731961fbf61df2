// The project's own documents stay complete: every seed section the code cites has a row in
// docs/REQUIREMENTS.md, and every document a file names (and every section of docs/ARCHITECTURE.md
// or model/SEMANTICS.md it quotes) exists in the repository.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { citedSections, listedSections, repositoryFiles, SECTION_MAX, sectionKey } from '../scripts/cited-sections.ts';
import { collect, rebuild } from '../scripts/requirements-table.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const REQUIREMENTS = readFileSync(path.join(ROOT, 'docs/REQUIREMENTS.md'), 'utf8');

/** Documents the testbed writes when it runs (reports), not documents of the repository. */
const GENERATED = new Set(['gates.md']);
/** Documents whose headings a reference may quote: `docs/ARCHITECTURE.md "The store port"`. */
const QUOTABLE: Readonly<Record<string, string>> = { 'docs/ARCHITECTURE.md': 'docs/ARCHITECTURE.md', 'model/SEMANTICS.md': 'model/SEMANTICS.md', 'SEMANTICS.md': 'model/SEMANTICS.md' };

const files = [...repositoryFiles(ROOT), ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const basenames = new Set(files.map((f) => path.basename(f)));

function headingsOf(doc: string): string[] {
  return readFileSync(path.join(ROOT, doc), 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#{1,6} /, '').trim());
}

describe('docs/REQUIREMENTS.md', () => {
  test('its tables say what proves each section today (npx tsx scripts/requirements-table.ts rebuilds them)', () => {
    expect(rebuild(REQUIREMENTS, collect()) === REQUIREMENTS, 'docs/REQUIREMENTS.md is out of date: run npx tsx scripts/requirements-table.ts').toBe(true);
  });

  const citations = citedSections(ROOT);

  test('lists every seed section the code cites', () => {
    const listed = listedSections(REQUIREMENTS);
    const missing = new Map<string, string>();
    for (const c of citations) {
      const key = sectionKey(c.seed, c.section);
      if (!listed.has(key) && !missing.has(key)) missing.set(key, `${key} (cited in ${c.file}:${c.line})`);
    }
    // Add a row for each (npx tsx scripts/requirements-table.ts adds it), or name the seed in the comment.
    expect([...missing.values()]).toEqual([]);
  });

  test('every cited section exists in its seed', () => {
    const outOfRange = citations.filter((c) => c.section < 1 || c.section > SECTION_MAX[c.seed]).map((c) => `${c.file}:${c.line}: ${sectionKey(c.seed, c.section)}`);
    expect(outOfRange).toEqual([]);
  });

  test('every row states its requirement', () => {
    const rows = REQUIREMENTS.split('\n').filter((line) => /^\| 00[01] §/.test(line));
    expect(rows.length).toBeGreaterThan(100);
    const empty = rows.filter((row) => {
      const statement = row.split(' | ')[1] ?? '';
      return statement.trim() === '' || statement.includes('statement missing');
    });
    expect(empty).toEqual([]);
  });
});

describe('references to documents', () => {
  test('every document a file names exists in the repository', () => {
    const dangling: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, index) => {
        for (const match of line.matchAll(/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b/g)) {
          const name = match[0];
          if (GENERATED.has(path.basename(name)) || name.includes('://')) continue;
          const found = name.includes('/')
            ? existsSync(path.join(ROOT, name)) || existsSync(path.join(ROOT, path.dirname(file), name))
            : basenames.has(name);
          if (!found) dangling.push(`${file}:${index + 1}: ${name}`);
        }
      });
    }
    expect(dangling).toEqual([]);
  });

  test("every relative link of a Markdown document resolves from that document's folder", () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const [, target] of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
            if (/^[a-z]+:/.test(target!)) continue;
            if (!existsSync(path.join(ROOT, path.dirname(file), target!))) broken.push(`${file}:${index + 1}: ${target}`);
          }
        });
    }
    expect(broken).toEqual([]);
  });

  /** Source files named in the comments of `sources` that exist neither from the root nor from the naming file's folder up. */
  const danglingSourceRefs = (sources: ReadonlyArray<{ readonly file: string; readonly text: string }>): string[] => {
    const dangling: string[] = [];
    for (const { file, text } of sources) {
      text.split('\n').forEach((line, index) => {
        if (!/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        for (const match of line.matchAll(/(?<![\w./-])((?:[a-z0-9_-]+\/)+[A-Za-z0-9_.-]+\.(?:ts|mjs|py|sh))\b/g)) {
          const name = match[1]!;
          const bases = [ROOT, ...path.dirname(file).split('/').map((_, i, parts) => path.join(ROOT, ...parts.slice(0, parts.length - i)))];
          if (!bases.some((base) => existsSync(path.join(base, name)))) dangling.push(`${file}:${index + 1}: ${name}`);
        }
      });
    }
    return dangling;
  };

  test('every source file a comment of the code names exists (from the root, or from the naming file\'s folder up)', () => {
    const SOURCE = /^(model|faults|scenarios|adapters|sim|campaign|reports|cli|conformance|scripts)\/.*\.ts$/;
    const sources = files.filter((f) => SOURCE.test(f)).map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
    expect(sources.length).toBeGreaterThan(300);
    expect(danglingSourceRefs(sources)).toEqual([]);
    // A planted reference to a file that moved away is found; one to a file that exists, or to a sibling, is not.
    const planted = [{ file: 'sim/planted.ts', text: '// see sim/faults/index.ts and faults/index.ts\n// and coordination/faults.ts\nconst a = "sim/x.ts";' }];
    expect(danglingSourceRefs(planted)).toEqual(['sim/planted.ts:1: sim/faults/index.ts']);
  });

  test('every quoted section of docs/ARCHITECTURE.md and model/SEMANTICS.md is a heading there', () => {
    const headings = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, index) => {
        for (const match of line.matchAll(/((?:docs\/ARCHITECTURE|(?:model\/)?SEMANTICS)\.md)((?:\s*(?:,|and)?\s*"[^"]+")+)/g)) {
          const doc = QUOTABLE[match[1]!]!;
          if (!headings.has(doc)) headings.set(doc, headingsOf(doc));
          for (const quoted of match[2]!.matchAll(/"([^"]+)"/g)) {
            const title = quoted[1]!;
            if (!headings.get(doc)!.some((h) => h === title || h.startsWith(`${title} (`))) unknown.push(`${file}:${index + 1}: ${doc} "${title}"`);
          }
        }
      });
    }
    expect(unknown).toEqual([]);
  });
});
