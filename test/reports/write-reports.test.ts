// Reports are written atomically: complete files only, no temporary file left, nothing written when a render fails; gates.json and gates.md say what the gates say.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../campaign/atomic-write.ts';
import { computeGates, GATE_CATALOGUE, GateInputError, writeReports } from '../../reports/index.ts';
import { cleanInput, STALE_REPLAY, STALE_RUN, STALE_VIOLATION, staleHolderFailingInput } from './fixtures.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const FILES = ['gates.json', 'gates.md', 'index.html', 'junit.xml'];

const scratch = scratchDirs('gate-report-');
async function tempDir(): Promise<string> {
  return scratch();
}

describe('writeReports', () => {
  it('writes the four reports into a new directory and nothing else', async () => {
    const out = join(await tempDir(), 'nested', 'report');
    const { files } = await writeReports(staleHolderFailingInput(), out);
    expect(files.map((f) => f.slice(out.length + 1)).sort()).toEqual(FILES);
    expect((await readdir(out)).sort()).toEqual(FILES);
  });

  it('writes gates.json in the contract shape, with evidence as an object', async () => {
    const out = await tempDir();
    await writeReports(staleHolderFailingInput(), out);
    const document = JSON.parse(await readFile(join(out, 'gates.json'), 'utf8'));
    expect(Object.keys(document)).toEqual(['verdict', 'gates']);
    expect(document.verdict.status).toBe('fail');
    expect(document.gates).toHaveLength(GATE_CATALOGUE.length);
    for (const gate of document.gates) {
      expect(Object.keys(gate)).toEqual(['id', 'title', 'source', 'status', 'evidence']);
      expect(['pass', 'partial', 'fail', 'untested']).toContain(gate.status);
      expect(Object.keys(gate.evidence)).toEqual(['summary', 'scenarios', 'mutants', 'suites']);
    }
    expect(document.gates).toEqual(JSON.parse(JSON.stringify(computeGates(staleHolderFailingInput()))));
  });

  it('writes gates.md with one table row per gate and the replay line of each failure', async () => {
    const out = await tempDir();
    await writeReports(staleHolderFailingInput(), out);
    const md = await readFile(join(out, 'gates.md'), 'utf8');
    for (const gate of GATE_CATALOGUE) expect(md).toContain(`| ${gate.id} |`);
    expect(md).toMatch(/\| ❌ fail \| 000-316-stale-owner-mutation \|/);
    expect(md).toContain('## Why the failing gates fail');
    expect(md).toContain(`  - \`${STALE_REPLAY}\``);
    expect(md).not.toContain('replay: replay:');
    expect(md).not.toContain('<img');
    // A table cell never breaks on a pipe or a newline taken from the evidence.
    for (const line of md.split('\n').filter((l) => l.startsWith('| ') && l.includes('000-316-'))) {
      expect(line.replace(/\\\|/g, '').split('|')).toHaveLength(6);
    }
  });

  it('replaces the previous reports whole and leaves no temporary file', async () => {
    const out = await tempDir();
    await writeReports(cleanInput(), out);
    const before = await readFile(join(out, 'gates.json'), 'utf8');
    await writeReports(staleHolderFailingInput(), out);
    const after = await readFile(join(out, 'gates.json'), 'utf8');
    expect(after).not.toBe(before);
    expect(JSON.parse(after).gates.some((g: { status: string }) => g.status === 'fail')).toBe(true);
    expect((await readdir(out)).sort()).toEqual(FILES);
  });

  it('writes nothing when a render fails, keeping the previous reports byte for byte', async () => {
    const out = await tempDir();
    await writeReports(cleanInput(), out);
    const before = await Promise.all(FILES.map((f) => readFile(join(out, f), 'utf8')));
    const broken = { ...cleanInput(), scenarios: [{ ...cleanInput().scenarios[0]!, failures: 999 }] };
    await expect(writeReports(broken, out)).rejects.toThrow(GateInputError);
    expect(await Promise.all(FILES.map((f) => readFile(join(out, f), 'utf8')))).toEqual(before);
    expect((await readdir(out)).sort()).toEqual(FILES);
  });
});

describe('index.html', () => {
  it('shows the first five violations of a run and folds the rest with a count per invariant', async () => {
    const out = await tempDir();
    const violations = [...Array(7).keys()].map((i) => ({ ...STALE_VIOLATION, invariant: i < 4 ? 'no-stale-mutation' : 'fencing-monotonic', message: `violation ${i}` }));
    await writeReports({ ...cleanInput(), samples: [{ ...STALE_RUN, violations }] }, out);
    const html = await readFile(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<summary>2 more violations (all 7: no-stale-mutation ×4, fencing-monotonic ×3)</summary>');
    expect(html.indexOf('violation 4')).toBeLessThan(html.indexOf('<summary>2 more'));
    expect(html.indexOf('violation 5')).toBeGreaterThan(html.indexOf('<summary>2 more'));
  });
});

describe('writeFileAtomic', () => {
  it('removes its temporary file when the final rename fails, and leaves the target alone', async () => {
    const dir = await tempDir();
    const target = join(dir, 'index.html');
    await mkdir(target);
    await writeFile(join(target, 'keep'), 'x');
    await expect(writeFileAtomic(target, '<html>')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['index.html']);
    expect(await readdir(target)).toEqual(['keep']);
  });
});
