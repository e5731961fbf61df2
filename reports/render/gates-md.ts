// gates.md: the gate table for a pull request or a release note, then the evidence behind
// every gate that did not pass, with the lines that replay each failure.

import { mutantCaught, type GateRunInput, type MutantEvidence } from '../../campaign/gates/evidence.ts';
import { countsLine, gateGroups, statusCounts } from '../gate-groups.ts';
import { mutantShrunk, proofCatch, scenarioProof, type GateResult } from '../gate-status.ts';
import { escapeMarkdown as text, escapeMarkdownCell as cell, markdownCode as code } from '../markup-escape.ts';
import { replayLine } from '../replay-line.ts';
import { verdictLine, type RunVerdict } from '../run-verdict.ts';

const MARK = { pass: '✅ pass', partial: '🔵 partial', fail: '❌ fail', untested: '⚪ untested' } as const;

function table(header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<unknown>>): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

export function renderGatesMd(input: GateRunInput, gates: ReadonlyArray<GateResult>, verdict: RunVerdict): string {
  const counts = statusCounts(gates);
  const lines: string[] = [
    '# Production-readiness gate report',
    '',
    `Run ${input.startedAt} → ${input.finishedAt}.`,
    '',
    `**${text(verdictLine(verdict))}**`,
    '',
    ...[...verdict.failures, ...verdict.undecided].map((i) => `- ${i.kind} ${code(i.name)}: ${text(i.why)}${i.replay === undefined ? '' : ` ${code(replayLine(i.replay))}`}`),
    ...(verdict.status === 'pass' ? [] : ['']),
    `- Release gates (000 §316, 001 §339): ${countsLine(counts.gates)}`,
    `- Acceptance tests (000 §315, 001 §338): ${countsLine(counts.acceptance)}`,
    '',
  ];
  for (const group of gateGroups(gates)) {
    lines.push(`## ${group.heading}`, '');
    lines.push(...table(['Status', 'Id', 'Gate', 'Evidence'], group.gates.map((g) => [MARK[g.status], g.id, g.title, g.evidence.summary])));
    lines.push('');
  }
  lines.push('## Scenarios', '');
  lines.push(
    ...table(
      ['Scenario', 'Adapter', 'Faults', 'Expect', 'Seeds', 'Failing seeds', 'Result', 'Replay'],
      input.scenarios.map((s) => {
        const proof = scenarioProof(s);
        return [s.scenario, s.adapter, s.faults, s.expect, s.seedsRun, s.failures, proof.holds ? 'as expected' : 'NOT as expected', s.firstFailure === undefined ? '' : replayLine(s.firstFailure.replay)];
      }),
    ),
    '',
  );
  lines.push('## Mutants', '');
  lines.push(
    ...table(
      ['Mutant', 'Bug', 'Caught', 'Seeds tried', 'Caught at', 'Shrunk operations', 'Replay (of the run caught at)', 'Command-level check'],
      input.mutants.map((m) => [
        m.name,
        m.bug,
        mutantCaught(m) ? 'yes' : 'NO',
        m.seedsTried,
        m.caught ? `${m.firstFailingScenario === undefined ? '' : `${m.firstFailingScenario} `}seed ${m.firstFailingSeed ?? '?'}` : m.checkOnly === undefined ? '' : 'the command-level check only: no workload reaches it',
        mutantShrunk(m),
        m.replay === undefined ? '' : replayLine(m.replay),
        checkCell(m.check),
      ]),
    ),
    '',
  );
  if (input.suites.length > 0) {
    lines.push('## Suites', '', ...table(['Suite', 'Passed', 'Failed'], input.suites.map((s) => [s.name, s.passed, s.failed])), '');
  }
  const failing = gates.filter((g) => g.status === 'fail');
  if (failing.length > 0) {
    lines.push('## Why the failing gates fail', '');
    for (const gate of failing) {
      lines.push(`### ${gate.id}: ${text(gate.title)}`, '');
      for (const proof of gate.evidence.scenarios.filter((p) => !p.holds)) {
        lines.push(`- ${text(proof.finding)}`);
        for (const v of proof.firstFailure?.violations ?? []) lines.push(`  - ${code(v.invariant)}: ${text(v.message)}`);
        if (proof.firstFailure !== undefined) lines.push(`  - ${code(replayLine(proof.firstFailure.replay))}`);
      }
      for (const proof of gate.evidence.mutants.filter((p) => !p.holds)) {
        lines.push(`- Mutant ${code(proof.name)} (${text(proof.bug)}) was ${text(proofCatch(proof))}.`);
      }
      for (const proof of gate.evidence.suites.filter((p) => !p.holds)) lines.push(`- Suite ${code(proof.name)}: ${proof.failed} failed.`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The command-level check's result on a mutant, in one cell. */
function checkCell(check: MutantEvidence['check']): string {
  if (check === undefined) return 'not a store bug';
  if (!check.caught) return `NOT caught: ${check.replay}`;
  return `caught in ${check.firstFailureMs ?? '?'} ms, ${check.steps ?? '?'} steps: ${check.replay}`;
}
