// One verdict everywhere: the console, the exit code, gates.json, gates.md, index.html and
// junit.xml state the same verdict and name the same failures, for a failure that no gate row rests
// on (a mutant that escaped its seed budget, a suite with a failed test) as for a failing row.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishGateRun } from '../../cli/gate-output.ts';
import { GATE_CATALOGUE, type GateRunInput } from '../../reports/index.ts';
import { cleanInput, staleHolderFailingInput } from '../reports/fixtures.ts';
import { descendants, parseXml } from '../reports/xml-check.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-verdict-');

interface SixOutputs {
  readonly console: string;
  readonly exitCode: number;
  readonly json: { verdict: { status: string; failures: Array<{ kind: string; name: string }>; undecided: unknown[] }; gates: Array<{ status: string }> };
  readonly markdown: string;
  readonly html: string;
  readonly junit: { failures: number; errors: number; verdict: string | undefined };
}

async function sixOutputs(input: GateRunInput): Promise<SixOutputs> {
  const out = scratch();
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    await finishGateRun(input, { out });
  } finally {
    spy.mockRestore();
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  const root = parseXml(readFileSync(path.join(out, 'junit.xml'), 'utf8'));
  const property = descendants(root, 'property').find((p) => p.attributes['name'] === 'verdict');
  return {
    // Colours off: the console text as a reader sees it.
    console: written.join('').replace(/\u001b\[[0-9;]*m/g, ''),
    exitCode,
    json: JSON.parse(readFileSync(path.join(out, 'gates.json'), 'utf8')),
    markdown: readFileSync(path.join(out, 'gates.md'), 'utf8'),
    html: readFileSync(path.join(out, 'index.html'), 'utf8'),
    junit: { failures: Number(root.attributes['failures']), errors: Number(root.attributes['errors']), verdict: property?.attributes['value'] },
  };
}

/** The clean input plus a mutant that no gate row names (every catalogued one is on a row), escaped after its whole seed budget. */
function escapedMutantInput(): GateRunInput {
  const input = cleanInput();
  expect(GATE_CATALOGUE.some((g) => g.proofs.mutants.includes('planted-escape'))).toBe(false);
  return { ...input, mutants: [...input.mutants, { name: 'planted-escape', bug: 'a bug no row names', caught: false, seedsTried: 50 }] };
}

function expectAgreement(six: SixOutputs, status: 'pass' | 'fail', failures: ReadonlyArray<string>): void {
  const line = `verdict: ${status}`;
  expect(six.exitCode).toBe(status === 'pass' ? 0 : 1);
  expect(six.console).toContain(line);
  expect(six.json.verdict.status).toBe(status);
  expect(six.json.verdict.failures.map((f) => `${f.kind} ${f.name}`)).toEqual(failures);
  expect(six.markdown).toContain(line);
  expect(six.html).toContain(`data-verdict="${status}"`);
  expect(six.junit.verdict).toBe(status);
  expect(six.junit.failures).toBe(failures.length);
  expect(six.junit.errors).toBe(0);
  for (const name of failures) {
    expect(six.console).toContain(name);
    expect(six.markdown).toContain(name.split(' ').slice(1).join(' '));
    expect(six.html).toContain(name.split(' ').slice(1).join(' '));
  }
}

describe('one verdict across the six outputs', () => {
  afterEach(() => {
    process.exitCode = 0;
  });

  it('a clean run passes everywhere', async () => {
    expectAgreement(await sixOutputs(cleanInput()), 'pass', []);
  });

  it('a mutant that escaped its seed budget fails the run everywhere, even when no gate row names it', async () => {
    const six = await sixOutputs(escapedMutantInput());
    expect(six.json.gates.filter((g) => g.status === 'fail')).toHaveLength(0);
    expectAgreement(six, 'fail', ['mutant planted-escape']);
    expect(six.console).toContain('mutant planted-escape (a bug no row names) was not caught in 50 seeds');
  });

  it('a mutant on a row that escaped fails its rows and itself, each once, in every output', async () => {
    const input = cleanInput();
    const onRow = input.mutants.find((m) => GATE_CATALOGUE.some((g) => g.proofs.mutants.includes(m.name)))!;
    const six = await sixOutputs({ ...input, mutants: input.mutants.map((m) => (m === onRow ? { name: m.name, bug: m.bug, caught: false, seedsTried: 50 } : m)) });
    const rows = GATE_CATALOGUE.filter((g) => g.proofs.mutants.includes(onRow.name)).map((g) => `gate ${g.id}`);
    expectAgreement(six, 'fail', [...rows, `mutant ${onRow.name}`]);
  });

  it('a suite with a failed test fails the run everywhere', async () => {
    const input = cleanInput();
    const six = await sixOutputs({ ...input, suites: [...input.suites, { name: 'a-planted-suite', passed: 3, failed: 1 }] });
    expectAgreement(six, 'fail', ['suite a-planted-suite']);
  });

  it('a failing row and its sweep are each one failure, in every output', async () => {
    const six = await sixOutputs(staleHolderFailingInput());
    const rows = six.json.gates.filter((g) => g.status === 'fail').length;
    expect(rows).toBeGreaterThan(0);
    const names = six.json.verdict.failures.map((f) => `${f.kind} ${f.name}`);
    expect(names).toContain('scenario stale-holder on memory (sim faults)');
    expectAgreement(six, 'fail', names);
    expect(names.filter((n) => n.startsWith('gate '))).toHaveLength(rows);
  });

  it('an undecided sweep no row rests on is a JUnit error, and the run is undecided (exit 3) when nothing else failed', async () => {
    const input = cleanInput();
    const sweep = { ...input.scenarios[0]!, scenario: 'planted-undecided', title: 'a sweep no row names', status: 'unknown' as const };
    const six = await sixOutputs({ ...input, scenarios: [...input.scenarios, sweep] });
    expect(six.junit.errors).toBe(1);
    expect(six.exitCode).toBe(3);
    expect(six.json.verdict.status).toBe('undecided');
    expect(six.console).toContain('verdict: undecided');
    expect(six.markdown).toContain('verdict: undecided');
    expect(six.html).toContain('data-verdict="undecided"');
    expect(six.junit.verdict).toBe('undecided');
  });

  it('an undecided sweep a row rests on fails that row (an undecided run never counts as a pass): exit 1, the sweep a JUnit error', async () => {
    const input = cleanInput();
    const target = input.scenarios.find((s) => s.scenario === 'stale-holder' && s.adapter === 'memory')!;
    const six = await sixOutputs({ ...input, scenarios: input.scenarios.map((s) => (s === target ? { ...s, status: 'unknown' as const } : s)) });
    expect(six.exitCode).toBe(1);
    expect(six.json.verdict.undecided.map((i) => (i as { name: string }).name)).toEqual(['stale-holder on memory (sim faults)']);
    expect(six.junit).toMatchObject({ errors: 1, verdict: 'fail', failures: six.json.verdict.failures.length });
    expect(six.json.verdict.failures.every((f) => f.kind === 'gate')).toBe(true);
  });
});
