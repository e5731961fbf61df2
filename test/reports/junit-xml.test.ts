// junit.xml is well-formed, escapes what runs put in it, and has one testcase per gate and per scenario sweep: failures carry the violation and the replay line, untested gates are skipped.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_CATALOGUE, writeReports } from '../../reports/index.ts';
import { cleanInput, PUBLISHED_MUTANTS, PUBLISHED_SCENARIOS, STALE_REPLAY, staleHolderFailingInput } from './fixtures.ts';
import { descendants, parseXml, type XmlElement } from './xml-check.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('junit-');

async function junit(input = staleHolderFailingInput()): Promise<{ text: string; root: XmlElement }> {
  const out = scratch();
  await writeReports(input, out);
  const text = await readFile(join(out, 'junit.xml'), 'utf8');
  return { text, root: parseXml(text) };
}

function suite(root: XmlElement, name: string): XmlElement {
  const found = root.children.find((c) => c.name === 'testsuite' && c.attributes['name'] === name);
  if (found === undefined) throw new Error(`no testsuite ${name}`);
  return found;
}

describe('junit.xml', () => {
  it('parses back as one testsuites element with gates, scenarios, mutants and suites suites', async () => {
    const { root, text } = await junit();
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(root.name).toBe('testsuites');
    expect(root.children.map((c) => c.attributes['name'])).toEqual(['gates', 'scenarios', 'mutants', 'suites']);
    expect(descendants(suite(root, 'gates'), 'testcase')).toHaveLength(GATE_CATALOGUE.length);
    expect(descendants(suite(root, 'scenarios'), 'testcase')).toHaveLength(cleanInput().scenarios.length);
    expect(descendants(suite(root, 'mutants'), 'testcase')).toHaveLength(PUBLISHED_MUTANTS.length);
    expect(descendants(suite(root, 'suites'), 'testcase')).toHaveLength(cleanInput().suites.length);
    const total = descendants(root, 'testcase').length;
    expect(root.attributes['tests']).toBe(String(total));
    expect(root.attributes['failures']).toBe(String(descendants(root, 'failure').length));
    expect(root.attributes['skipped']).toBe(String(descendants(root, 'skipped').length));
  });

  it('carries the violation, escaped, and the replay line in the failure of the gate and of the scenario', async () => {
    const { root, text } = await junit();
    const gate = descendants(suite(root, 'gates'), 'testcase').find((c) => c.attributes['name']!.startsWith('000-316-stale-owner-mutation:'))!;
    const failure = gate.children.find((c) => c.name === 'failure')!;
    expect(failure.text).toContain(`no-stale-mutation: write under token 1 accepted after token 2 <img src=x onerror="window.__injected=1"> & 'quoted' ]]> \uFFFD`);
    expect(failure.text).toContain(STALE_REPLAY);
    const scenario = descendants(suite(root, 'scenarios'), 'testcase').find((c) => c.attributes['name'] === 'stale-holder (memory, sim faults)')!;
    expect(scenario.children.find((c) => c.name === 'failure')!.text).toContain(STALE_REPLAY);
    expect(text).not.toContain('<img');
    expect(text).not.toContain('replay: replay:');
    expect(text).not.toContain('\u0001');
  });

  it('skips every untested gate with its reason and passes the rest of a clean run', async () => {
    const { root } = await junit(cleanInput());
    const cases = descendants(suite(root, 'gates'), 'testcase');
    const skipped = cases.filter((c) => c.children.some((k) => k.name === 'skipped'));
    const untested = GATE_CATALOGUE.filter((g) => g.proofs.scenarios.length + g.proofs.mutants.length + g.proofs.suites.length === 0);
    expect(skipped.map((c) => c.attributes['name']!.split(':')[0])).toEqual(untested.map((g) => g.id));
    expect(skipped.find((c) => c.attributes['name']!.startsWith('001-338-own-ha-dogfood'))!.children[0]!.attributes['message']).toMatch(/outside this testbed/);
    expect(descendants(root, 'failure')).toHaveLength(0);
  });

  it('fails an uncaught mutant', async () => {
    const input = cleanInput();
    const { root } = await junit({ ...input, mutants: input.mutants.map((m) => (m.name === 'semaphore-off-by-one' ? { ...m, caught: false } : m)) });
    const mutant = descendants(suite(root, 'mutants'), 'testcase').find((c) => c.attributes['name']!.startsWith('semaphore-off-by-one:'))!;
    expect(mutant.children.find((c) => c.name === 'failure')!.attributes['message']).toBe('not caught in 12 seeds');
  });

  it('the checker itself rejects malformed XML', () => {
    expect(() => parseXml('<a><b></a></b>')).toThrow(/closes/);
    expect(() => parseXml('<a>x & y</a>')).toThrow(/bare &/);
    expect(() => parseXml('<a t="1" t="2"/>')).toThrow(/duplicate/);
    expect(() => parseXml('<a>')).toThrow(/unclosed/);
  });
});
