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

/** The clean input with one mutant that no gate row names, escaped after its whole seed budget. */
function escapedMutantInput(): GateRunInput {
  const input = cleanInput();
  const onRows = new Set(GATE_CATALOGUE.flatMap((g) => g.proofs.mutants));
  const planted = input.mutants.find((m) => !onRows.has(m.name)) ?? input.mutants[0]!;
  return { ...input, mutants: input.mutants.map((m) => (m === planted ? { name: m.name, bug: m.bug, caught: false, seedsTried: 50 } : m)) };
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
    const input = escapedMutantInput();
    const escaped = input.mutants.find((m) => !m.caught)!;
    const six = await sixOutputs(input);
    const rowFailures = six.json.gates.filter((g) => g.status === 'fail').length;
    const expected = [...(rowFailures > 0 ? six.json.verdict.failures.filter((f) => f.kind === 'gate').map((f) => `gate ${f.name}`) : []), `mutant ${escaped.name}`];
    expectAgreement(six, 'fail', expected);
    expect(six.console).toContain(`mutant ${escaped.name} (${escaped.bug}) was not caught in 50 seeds`);
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

  it('an undecided sweep is a JUnit error, and the run is undecided (exit 3) when nothing else failed', async () => {
    const input = cleanInput();
    // A sweep no row rests on, so no row fails with it.
    const onRows = new Set(GATE_CATALOGUE.flatMap((g) => g.proofs.scenarios.map((r) => r.split('@')[0])));
    const loose = input.scenarios.find((s) => !onRows.has(s.scenario));
    const target = loose ?? input.scenarios[0]!;
    const six = await sixOutputs({ ...input, scenarios: input.scenarios.map((s) => (s === target ? { ...s, status: 'unknown' as const } : s)) });
    expect(six.junit.errors).toBe(1);
    if (loose !== undefined) {
      expect(six.exitCode).toBe(3);
      expect(six.json.verdict.status).toBe('undecided');
      expect(six.console).toContain('verdict: undecided');
      expect(six.markdown).toContain('verdict: undecided');
      expect(six.html).toContain('data-verdict="undecided"');
      expect(six.junit.verdict).toBe('undecided');
    } else {
      // Every sweep credits a row: the row fails with it.
      expect(six.exitCode).toBe(1);
      expect(six.json.verdict.undecided).toHaveLength(1);
      expect(six.junit.verdict).toBe('fail');
    }
  });
});
