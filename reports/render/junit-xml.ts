// junit.xml: one testcase per gate and per scenario sweep (and per mutant), so CI shows the
// report in its test view. A failure carries the violations and the line that replays it; an
// untested gate is skipped, with the reason. Times are real: a sweep's or a hunt's wall-clock time
// as the gate run measured it, and a gate's the sum of the evidence it rests on; every suite
// carries the run's start as its timestamp.

import { mutantCaught, type GateRunInput } from '../../campaign/gates/evidence.ts';
import { mutantCatch, proofCatch, scenarioProof, type GateResult } from '../gate-status.ts';
import { escapeMarkup as esc } from '../markup-escape.ts';
import { replayLine } from '../replay-line.ts';
import { verdictLine, type RunVerdict } from '../run-verdict.ts';

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly message: string; readonly body: string };
  /** A sweep that could not decide every seed: JUnit's error, not a failure. */
  readonly error?: { readonly message: string; readonly body: string };
  readonly skipped?: string;
  readonly out?: string;
  /** Real time, in ms (absent when the evidence carries none, as in results from before times were kept). */
  readonly ms?: number;
}

/** Seconds as JUnit writes them; a measured time never rounds down to zero. */
function seconds(ms: number | undefined): string {
  if (ms === undefined || ms <= 0) return '0';
  return Math.max(ms / 1000, 0.001).toFixed(3);
}

/** The timestamp of JUnit's schema: ISO 8601 without a zone (UTC here). */
function timestamp(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 19);
}

const sum = (values: ReadonlyArray<number | undefined>): number | undefined =>
  values.some((v) => v !== undefined) ? values.reduce<number>((total, v) => total + (v ?? 0), 0) : undefined;

function suite(name: string, cases: ReadonlyArray<Case>, startedAt: string, properties: ReadonlyArray<readonly [string, string]> = []): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const errors = cases.filter((c) => c.error !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const props = properties.length === 0 ? '' : `    <properties>\n${properties.map(([k, v]) => `      <property name="${esc(k)}" value="${esc(v)}"/>\n`).join('')}    </properties>\n`;
  const body = cases.map((c) => {
    const inner = [
      c.failure === undefined ? '' : `      <failure message="${esc(c.failure.message)}" type="violation">${esc(c.failure.body)}</failure>\n`,
      c.error === undefined ? '' : `      <error message="${esc(c.error.message)}" type="undecided">${esc(c.error.body)}</error>\n`,
      c.skipped === undefined ? '' : `      <skipped message="${esc(c.skipped)}"/>\n`,
      c.out === undefined ? '' : `      <system-out>${esc(c.out)}</system-out>\n`,
    ].join('');
    return `    <testcase classname="${esc(c.classname)}" name="${esc(c.name)}" time="${seconds(c.ms)}"${inner === '' ? '/>' : `>\n${inner}    </testcase>`}`;
  });
  return (
    `  <testsuite name="${esc(name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(sum(cases.map((c) => c.ms)))}" timestamp="${timestamp(startedAt)}">\n` +
    `${props}${body.join('\n')}\n  </testsuite>`
  );
}

function gateCase(gate: GateResult): Case {
  const classname = `gates.${gate.source.replace(' §', '-')}`;
  const name = `${gate.id}: ${gate.title}`;
  const e = gate.evidence;
  const ms = sum([...e.scenarios, ...e.mutants, ...e.suites].map((p) => p.durationMs));
  const timed = ms === undefined ? {} : { ms };
  if (gate.status === 'untested') return { classname, name, skipped: gate.evidence.summary, ...timed };
  if (gate.status === 'pass') return { classname, name, out: gate.evidence.summary, ...timed };
  if (gate.status === 'partial') return { classname, name, out: `partial: ${gate.evidence.summary}`, ...timed };
  const lines: string[] = [];
  for (const proof of gate.evidence.scenarios.filter((p) => !p.holds)) {
    lines.push(proof.finding);
    for (const v of proof.firstFailure?.violations ?? []) lines.push(`  ${v.invariant}: ${v.message}`);
    if (proof.firstFailure !== undefined) lines.push(`  ${replayLine(proof.firstFailure.replay)}`);
  }
  for (const proof of gate.evidence.mutants.filter((p) => !p.holds)) lines.push(`mutant ${proof.name} (${proof.bug}) ${proofCatch(proof)}`);
  for (const proof of gate.evidence.suites.filter((p) => !p.holds)) lines.push(`suite ${proof.name}: ${proof.failed} failed`);
  return { classname, name, failure: { message: gate.evidence.summary, body: lines.join('\n') }, ...timed };
}

/**
 * Every failure of the run's verdict is one testcase with a failure (a failing gate row, a sweep
 * that did not do what it must, an escaped mutant, a suite with failed tests), and every undecided
 * sweep one with an error: the counts of junit.xml are the verdict's.
 */
export function renderJunitXml(input: GateRunInput, gates: ReadonlyArray<GateResult>, verdict: RunVerdict): string {
  const scenarios: Case[] = input.scenarios.map((s) => {
    const proof = scenarioProof(s);
    const classname = `scenarios.${s.adapter}`;
    const name = `${s.scenario} (${s.adapter}, ${s.faults} faults)`;
    const timed = s.durationMs === undefined ? {} : { ms: s.durationMs };
    if (proof.holds) return { classname, name, out: proof.finding, ...timed };
    const body = [
      proof.finding,
      ...(s.firstFailure?.violations ?? []).map((v) => `${v.invariant}: ${v.message}`),
      ...(s.firstFailure === undefined ? [] : [replayLine(s.firstFailure.replay)]),
    ];
    const problem = { message: proof.finding, body: body.join('\n') };
    return s.status === 'unknown' ? { classname, name, error: problem, ...timed } : { classname, name, failure: problem, ...timed };
  });
  const mutants: Case[] = input.mutants.map((m) => {
    const classname = 'mutants';
    const name = `${m.name}: ${m.bug}`;
    const timed = m.durationMs === undefined ? {} : { ms: m.durationMs };
    if (!mutantCaught(m)) return { classname, name, failure: { message: mutantCatch(m), body: `mutant ${m.name} (${m.bug}) survived: ${mutantCatch(m)}` }, ...timed };
    if (m.checkOnly !== undefined) return { classname, name, out: `${mutantCatch(m)}\n${m.check!.replay}`, ...timed };
    return { classname, name, out: `${mutantCatch(m)}; shrunk to ${m.shrunkOperations ?? '?'} operations${m.replay === undefined ? '' : `\n${replayLine(m.replay)}`}`, ...timed };
  });
  const tests: Case[] = input.suites.map((s) => {
    const timed = s.durationMs === undefined ? {} : { ms: s.durationMs };
    const said = `${s.passed} passed, ${s.failed} failed`;
    return s.failed === 0 ? { classname: 'suites', name: s.name, out: said, ...timed } : { classname: 'suites', name: s.name, failure: { message: said, body: `suite ${s.name}: ${said}` }, ...timed };
  });
  const gateCases = gates.map(gateCase);
  const verdictProperties = [['verdict', verdict.status], ['summary', verdictLine(verdict)]] as const;
  const suites = [
    suite('gates', gateCases, input.startedAt, verdictProperties),
    suite('scenarios', scenarios, input.startedAt),
    suite('mutants', mutants, input.startedAt),
    suite('suites', tests, input.startedAt),
  ];
  const all = [...gateCases, ...scenarios, ...mutants, ...tests];
  const failures = all.filter((c) => c.failure !== undefined).length;
  const errors = all.filter((c) => c.error !== undefined).length;
  const skipped = all.filter((c) => c.skipped !== undefined).length;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="testbed gates" tests="${all.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(Date.parse(input.finishedAt) - Date.parse(input.startedAt))}" timestamp="${timestamp(input.startedAt)}">\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}
