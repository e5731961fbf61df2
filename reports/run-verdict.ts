// The one verdict of a gate run, which every output states the same way: the console line, the exit
// code, gates.json (and `gates --json`), gates.md, index.html and junit.xml. It is computed from the
// evidence and the gates alone. A run fails when a gate row fails, or when any piece of evidence did
// not do what it must, whether or not a row rests on it: a sweep with a violation where none is
// allowed (or none where one must show), a mutant that escaped its seed budget (or, for a mutant
// only the command-level check reaches, the check), a suite with a failed test. A run that did not
// fail is undecided when a sweep could not decide every seed; an undecided sweep that a row rests on
// fails that row (gate-status.ts: an undecided run never counts as a pass), so only a sweep no row
// names leaves the run undecided rather than failed.

import { mutantCaught, type GateRunInput } from '../campaign/gates/evidence.ts';
import { scenarioProof, type GateResult } from './gate-status.ts';

export type RunVerdictStatus = 'pass' | 'fail' | 'undecided';

/** One thing that failed (or stayed undecided), named as every output names it. */
export interface VerdictItem {
  readonly kind: 'gate' | 'scenario' | 'mutant' | 'suite';
  /** The gate id, `scenario on adapter (faults)`, the mutant's or the suite's name. */
  readonly name: string;
  readonly why: string;
  readonly replay?: string;
}

export interface RunVerdict {
  readonly status: RunVerdictStatus;
  readonly failures: ReadonlyArray<VerdictItem>;
  readonly undecided: ReadonlyArray<VerdictItem>;
}

function scenarioName(s: { readonly scenario: string; readonly adapter: string; readonly faults: string }): string {
  return `${s.scenario} on ${s.adapter} (${s.faults} faults)`;
}

export function runVerdict(input: GateRunInput, gates: ReadonlyArray<GateResult>): RunVerdict {
  const failures: VerdictItem[] = gates.filter((g) => g.status === 'fail').map((g) => ({ kind: 'gate', name: g.id, why: g.evidence.summary }));
  const undecided: VerdictItem[] = [];
  for (const s of input.scenarios) {
    const proof = scenarioProof(s);
    if (proof.holds) continue;
    const item: VerdictItem = { kind: 'scenario', name: scenarioName(s), why: proof.finding, ...(s.firstFailure === undefined ? {} : { replay: s.firstFailure.replay }) };
    (s.status === 'unknown' ? undecided : failures).push(item);
  }
  for (const m of input.mutants) {
    if (mutantCaught(m)) continue;
    const where = m.checkOnly === undefined ? `in ${m.seedsTried} seeds` : 'by the command-level check, the only stage that reaches it';
    failures.push({ kind: 'mutant', name: m.name, why: `mutant ${m.name} (${m.bug}) was not caught ${where}` });
  }
  for (const s of input.suites) {
    if (s.failed > 0) failures.push({ kind: 'suite', name: s.name, why: `suite ${s.name}: ${s.failed} failed, ${s.passed} passed` });
  }
  const status: RunVerdictStatus = failures.length > 0 ? 'fail' : undecided.length > 0 ? 'undecided' : 'pass';
  return { status, failures, undecided };
}

/** The verdict in one line: `verdict: fail (2 failures: gate X, mutant y)`, as every output opens it. */
export function verdictLine(verdict: RunVerdict): string {
  const list = (items: ReadonlyArray<VerdictItem>): string => items.map((i) => `${i.kind} ${i.name}`).join(', ');
  const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  if (verdict.status === 'pass') return 'verdict: pass (no failure, nothing undecided)';
  if (verdict.status === 'undecided') return `verdict: undecided (${counted(verdict.undecided.length, 'undecided sweep')}: ${list(verdict.undecided)})`;
  const undecided = verdict.undecided.length === 0 ? '' : `; ${counted(verdict.undecided.length, 'undecided sweep')}: ${list(verdict.undecided)}`;
  return `verdict: fail (${counted(verdict.failures.length, 'failure')}: ${list(verdict.failures)}${undecided})`;
}
