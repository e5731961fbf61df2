// junit.xml: one testcase per gate and per scenario sweep (and per mutant), so CI shows the
// report in its test view. A failure carries the violations and the line that replays it; an
// untested gate is skipped, with the reason.

import type { GateRunInput } from '../gate-input.ts';
import { scenarioProof, type GateResult } from '../gate-status.ts';
import { escapeMarkup as esc } from '../markup-escape.ts';
import { replayLine } from '../replay-line.ts';

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly message: string; readonly body: string };
  readonly skipped?: string;
  readonly out?: string;
}

function suite(name: string, cases: ReadonlyArray<Case>): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const body = cases.map((c) => {
    const inner = [
      c.failure === undefined ? '' : `      <failure message="${esc(c.failure.message)}" type="violation">${esc(c.failure.body)}</failure>\n`,
      c.skipped === undefined ? '' : `      <skipped message="${esc(c.skipped)}"/>\n`,
      c.out === undefined ? '' : `      <system-out>${esc(c.out)}</system-out>\n`,
    ].join('');
    return `    <testcase classname="${esc(c.classname)}" name="${esc(c.name)}" time="0"${inner === '' ? '/>' : `>\n${inner}    </testcase>`}`;
  });
  return `  <testsuite name="${esc(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`;
}

function gateCase(gate: GateResult): Case {
  const classname = `gates.${gate.source.replace(' §', '-')}`;
  const name = `${gate.id}: ${gate.title}`;
  if (gate.status === 'untested') return { classname, name, skipped: gate.evidence.summary };
  if (gate.status === 'pass') return { classname, name, out: gate.evidence.summary };
  if (gate.status === 'partial') return { classname, name, out: `partial: ${gate.evidence.summary}` };
  const lines: string[] = [];
  for (const proof of gate.evidence.scenarios.filter((p) => !p.holds)) {
    lines.push(proof.finding);
    for (const v of proof.firstFailure?.violations ?? []) lines.push(`  ${v.invariant}: ${v.message}`);
    if (proof.firstFailure !== undefined) lines.push(`  ${replayLine(proof.firstFailure.replay)}`);
  }
  for (const proof of gate.evidence.mutants.filter((p) => !p.holds)) lines.push(`mutant ${proof.name} (${proof.bug}) not caught in ${proof.seedsTried} seeds`);
  for (const proof of gate.evidence.suites.filter((p) => !p.holds)) lines.push(`suite ${proof.name}: ${proof.failed} failed`);
  return { classname, name, failure: { message: gate.evidence.summary, body: lines.join('\n') } };
}

export function renderJunitXml(input: GateRunInput, gates: ReadonlyArray<GateResult>): string {
  const scenarios: Case[] = input.scenarios.map((s) => {
    const proof = scenarioProof(s);
    const classname = `scenarios.${s.adapter}`;
    const name = `${s.scenario} (${s.adapter}, ${s.faults} faults)`;
    if (proof.holds) return { classname, name, out: proof.finding };
    const body = [
      proof.finding,
      ...(s.firstFailure?.violations ?? []).map((v) => `${v.invariant}: ${v.message}`),
      ...(s.firstFailure === undefined ? [] : [replayLine(s.firstFailure.replay)]),
    ];
    return { classname, name, failure: { message: proof.finding, body: body.join('\n') } };
  });
  const mutants: Case[] = input.mutants.map((m) => {
    const classname = 'mutants';
    const name = `${m.name}: ${m.bug}`;
    return m.caught
      ? { classname, name, out: `caught at seed ${m.firstFailingSeed ?? '?'} of ${m.seedsTried}; shrunk to ${m.shrunkOperations ?? '?'} operations${m.replay === undefined ? '' : `\n${replayLine(m.replay)}`}` }
      : { classname, name, failure: { message: `not caught in ${m.seedsTried} seeds`, body: `mutant ${m.name} (${m.bug}) survived ${m.seedsTried} seeds` } };
  });
  const suites = [suite('gates', gates.map(gateCase)), suite('scenarios', scenarios), suite('mutants', mutants)];
  const all = [...gates.map(gateCase), ...scenarios, ...mutants];
  const failures = all.filter((c) => c.failure !== undefined).length;
  const skipped = all.filter((c) => c.skipped !== undefined).length;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="testbed gates" tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`
  );
}
