// Gate status is computed from the run's evidence alone, never written by hand. A gate fails when
// any present proof does not hold; it is untested when nothing in this run bears on it or a proof
// is missing from the run. Clean sweeps alone cannot fail where nothing breaks the rule, so a gate
// passes only when, besides, each of its mutants was caught on one of the gate's own scenarios by
// one of its invariants (or, for a mutant no workload reaches, by the command-level check, which
// compares every answer with the rule book); a gate whose evidence holds but is not shown able to
// fail is partial.

import { mutantCaught, type FirstFailure, type GateRunInput, type MutantEvidence, type ScenarioEvidence, type SuiteEvidence } from '../campaign/gates/evidence.ts';
import { GATE_CATALOGUE } from './gate-catalogue.ts';
import type { GateDefinition } from './gate-definition.ts';
import { validateGateInput } from './results-file.ts';

export type GateStatus = 'pass' | 'partial' | 'fail' | 'untested';

export interface ScenarioProof {
  readonly scenario: string;
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  readonly expect: 'pass' | 'violation';
  readonly seedsRun: number;
  readonly failures: number;
  readonly holds: boolean;
  /** One sentence on what the sweep showed. */
  readonly finding: string;
  readonly firstFailure?: FirstFailure;
  readonly durationMs?: number;
}

/** A mutant hunt's evidence as a gate reads it: without its catches and its command-level check. */
export interface MutantProof extends Omit<MutantEvidence, 'catches' | 'check'> {
  readonly holds: boolean;
  /** The catch that shows this gate's rule can fail: on one of its scenarios, by one of its invariants (null: none did). */
  readonly provesGate: { readonly scenario: string; readonly seed: number; readonly invariant: string } | null;
  /** For a mutant no workload reaches: the command-level check's catch, which shows the rule can fail (absent: none). */
  readonly provedByCheck?: { readonly steps?: number; readonly replay: string };
}

export interface SuiteProof {
  readonly name: string;
  readonly passed: number;
  readonly failed: number;
  readonly holds: boolean;
  readonly durationMs?: number;
}

export interface GateEvidence {
  readonly summary: string;
  readonly scenarios: ReadonlyArray<ScenarioProof>;
  readonly mutants: ReadonlyArray<MutantProof>;
  readonly suites: ReadonlyArray<SuiteProof>;
}

/** One row of `testbed gates --json` (docs/ARCHITECTURE.md "The CLI contract"). */
export interface GateResult extends Pick<GateDefinition, 'id' | 'title' | 'source'> {
  readonly status: GateStatus;
  readonly evidence: GateEvidence;
}

function matchesScenario(reference: string, evidence: ScenarioEvidence): boolean {
  const [name, adapter] = reference.split('@');
  return evidence.scenario === name && (adapter === undefined || evidence.adapter === adapter);
}

/** What one sweep shows: `holds` when the scenario did what it must (no violation, or caught when unmitigated). */
export function scenarioProof(e: ScenarioEvidence): ScenarioProof {
  const where = `${e.scenario} on ${e.adapter} (${e.faults} faults)`;
  let holds: boolean;
  let finding: string;
  if (e.status === 'unknown') {
    holds = false;
    finding = `${where}: could not decide every seed of ${e.seedsRun}; an undecided run never counts as a pass.`;
  } else if (e.expect === 'pass') {
    holds = e.failures === 0;
    finding = holds
      ? `${where}: ${e.seedsRun} seeds, no violation.`
      : `${where}: ${e.failures} of ${e.seedsRun} seeds violated ${invariantsOf(e.firstFailure)}${flakyNote(e.firstFailure)}.`;
  } else {
    holds = e.failures > 0;
    finding = holds
      ? `${where}: caught as expected in ${e.failures} of ${e.seedsRun} seeds (${invariantsOf(e.firstFailure)})${flakyNote(e.firstFailure)}.`
      : `${where}: expected a violation with the mitigation off, none in ${e.seedsRun} seeds.`;
  }
  return {
    scenario: e.scenario,
    adapter: e.adapter,
    faults: e.faults,
    expect: e.expect,
    seedsRun: e.seedsRun,
    failures: e.failures,
    holds,
    finding,
    ...(e.firstFailure === undefined ? {} : { firstFailure: e.firstFailure }),
    ...(e.durationMs === undefined ? {} : { durationMs: e.durationMs }),
  };
}

/** A first failure that did not fail again when run again still counts; the finding says it was flaky. */
function flakyNote(failure: FirstFailure | undefined): string {
  return failure?.flaky === true ? `; seed ${failure.seed} did not fail again when run again (flaky)` : '';
}

function invariantsOf(failure: FirstFailure | undefined): string {
  if (failure === undefined || failure.violations.length === 0) return 'an invariant';
  return [...new Set(failure.violations.map((v) => v.invariant))].join(', ');
}

/**
 * Where a mutant was first caught, in words: `caught by <scenario> seed <n> (of <tried> seeds
 * tried)`; the replay line of the evidence replays exactly that run. Evidence from before the
 * scenario was recorded names the seed alone.
 */
export function mutantCatch(m: Pick<MutantEvidence, 'caught' | 'firstFailingSeed' | 'firstFailingScenario' | 'seedsTried' | 'checkOnly' | 'check'>): string {
  if (m.checkOnly !== undefined) return checkOnlyCatch(m.checkOnly, m.check);
  if (!m.caught) return `not caught in ${m.seedsTried} seeds`;
  const where = m.firstFailingScenario === undefined ? `seed ${m.firstFailingSeed ?? '?'}` : `${m.firstFailingScenario} seed ${m.firstFailingSeed ?? '?'}`;
  return `caught by ${where} (of ${m.seedsTried} seeds tried)`;
}

/** Where a mutant no workload reaches was caught: by the command-level check, or not at all. */
function checkOnlyCatch(checkOnly: string, check: { readonly caught: boolean; readonly steps?: number } | undefined): string {
  const why = `no workload reaches it: ${checkOnly}`;
  if (check?.caught !== true) return `not caught by the command-level check (${why})`;
  return `caught by the command-level check${check.steps === undefined ? '' : ` in ${check.steps} steps`} (${why})`;
}

/** How a gate's proof by a mutant was caught, in words: by the hunt, or by the check for a mutant no workload reaches. */
export function proofCatch(p: MutantProof): string {
  return p.checkOnly === undefined ? mutantCatch(p) : checkOnlyCatch(p.checkOnly, p.provedByCheck === undefined ? undefined : { caught: true, ...p.provedByCheck });
}

/** The shrunk counterexample's size, and the run it was shrunk from when that is not the first catch. */
export function mutantShrunk(m: Pick<MutantEvidence, 'caught' | 'shrunkOperations' | 'shrunkFrom'>): string {
  if (!m.caught || m.shrunkOperations === undefined) return '';
  return m.shrunkFrom === undefined ? String(m.shrunkOperations) : `${m.shrunkOperations} (shrunk from ${m.shrunkFrom.scenario} seed ${m.shrunkFrom.seed}, the smallest of the catches)`;
}

function mutantProof(m: MutantEvidence, gate: GateDefinition): MutantProof {
  const scenarios = new Set(gate.proofs.scenarios.map((reference) => reference.split('@')[0]!));
  const wanted = gate.proofs.invariants;
  let provesGate: MutantProof['provesGate'] = null;
  for (const c of m.catches ?? []) {
    const invariant = c.invariants.find((i) => wanted.length === 0 || wanted.includes(i));
    if (scenarios.has(c.scenario) && invariant !== undefined) {
      provesGate = { scenario: c.scenario, seed: c.seed, invariant };
      break;
    }
  }
  const { catches: _catches, check: _check, ...rest } = m;
  const byCheck = m.checkOnly !== undefined && m.check?.caught === true ? { provedByCheck: { ...(m.check.steps === undefined ? {} : { steps: m.check.steps }), replay: m.check.replay } } : {};
  return { ...rest, holds: mutantCaught(m), provesGate, ...byCheck };
}

/** Why an otherwise clean gate is only partial; empty when it passes. */
function partialReasons(gate: GateDefinition, mutants: ReadonlyArray<MutantProof>): string[] {
  if (mutants.length === 0) return ['No mutant shows that this rule can break without one of the gate’s scenarios failing.'];
  const where = `on ${gate.proofs.scenarios.join(', ') || 'its scenarios'}${gate.proofs.invariants.length === 0 ? '' : ` by ${gate.proofs.invariants.join(', ')}`}`;
  return mutants.filter((p) => p.provesGate === null && p.provedByCheck === undefined).map((p) => `Mutant ${p.name} was caught, but not ${where}.`);
}

function suiteProof(s: SuiteEvidence): SuiteProof {
  return { name: s.name, passed: s.passed, failed: s.failed, holds: s.failed === 0, ...(s.durationMs === undefined ? {} : { durationMs: s.durationMs }) };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function summarize(
  gate: GateDefinition,
  status: GateStatus,
  scenarios: ReadonlyArray<ScenarioProof>,
  mutants: ReadonlyArray<MutantProof>,
  suites: ReadonlyArray<SuiteProof>,
  missing: ReadonlyArray<string>,
): string {
  const parts: string[] = [];
  if (scenarios.length + mutants.length + suites.length === 0) {
    const expected = [...gate.proofs.scenarios, ...gate.proofs.mutants, ...gate.proofs.suites];
    parts.push(
      expected.length === 0
        ? 'Nothing proves this gate.'
        : `Nothing in this run proves it; it would be proven by: ${expected.join(', ')}.`,
    );
  } else {
    const broken = [
      ...scenarios.filter((p) => !p.holds).map((p) => p.finding),
      ...mutants.filter((p) => !p.holds).map((p) => `Mutant ${p.name} was ${proofCatch(p)}.`),
      ...suites.filter((p) => !p.holds).map((p) => `Suite ${p.name}: ${p.failed} failed, ${p.passed} passed.`),
    ];
    parts.push(...broken);
    if (scenarios.length > 0) {
      const seeds = scenarios.reduce((n, p) => n + p.seedsRun, 0);
      const adapters = [...new Set(scenarios.map((p) => p.adapter))].join(', ');
      const violations = scenarios.filter((p) => p.expect === 'pass').reduce((n, p) => n + p.failures, 0);
      parts.push(`${plural(scenarios.length, 'scenario sweep')}, ${plural(seeds, 'seed')} on ${adapters}; ${plural(violations, 'failing seed')} where none is allowed.`);
    }
    if (mutants.length > 0) parts.push(`Mutants caught: ${mutants.filter((p) => p.holds).length} of ${mutants.length}.`);
    for (const p of mutants) {
      if (p.provesGate !== null) parts.push(`Proved by mutant ${p.name}, caught on ${p.provesGate.scenario} seed ${p.provesGate.seed} by invariant ${p.provesGate.invariant}.`);
      if (p.provedByCheck !== undefined) parts.push(`Proved by mutant ${p.name}, ${proofCatch(p)}.`);
    }
    if (status === 'partial') parts.push(...partialReasons(gate, mutants));
    if (suites.length > 0) parts.push(`Suites green: ${suites.filter((p) => p.holds).length} of ${suites.length}.`);
    if (missing.length > 0) parts.push(`Not in this run: ${missing.join(', ')}.`);
  }
  if (gate.note !== undefined) parts.push(gate.note);
  return parts.join(' ');
}

function evaluate(gate: GateDefinition, input: GateRunInput): GateResult {
  const missing: string[] = [];
  const scenarios: ScenarioProof[] = [];
  for (const reference of gate.proofs.scenarios) {
    const found = input.scenarios.filter((e) => matchesScenario(reference, e) && e.seedsRun > 0);
    if (found.length === 0) missing.push(reference);
    scenarios.push(...found.map(scenarioProof));
  }
  const mutants: MutantProof[] = [];
  for (const name of gate.proofs.mutants) {
    // A mutant no workload reaches is not hunted: its evidence is the check's.
    const found = input.mutants.filter((m) => m.name === name && (m.seedsTried > 0 || (m.checkOnly !== undefined && m.check !== undefined)));
    if (found.length === 0) missing.push(`mutant ${name}`);
    mutants.push(...found.map((m) => mutantProof(m, gate)));
  }
  const suites: SuiteProof[] = [];
  for (const name of gate.proofs.suites) {
    const found = input.suites.filter((s) => s.name === name && s.passed + s.failed > 0);
    if (found.length === 0) missing.push(`suite ${name}`);
    suites.push(...found.map(suiteProof));
  }
  const proofs = [...scenarios, ...mutants, ...suites];
  // One failing proof fails the gate; a proof missing from this run (PostgreSQL off, a step that
  // crashed) leaves it untested; evidence that holds but is not shown able to fail is partial.
  const status: GateStatus = proofs.some((p) => !p.holds)
    ? 'fail'
    : proofs.length === 0 || missing.length > 0
      ? 'untested'
      : partialReasons(gate, mutants).length > 0
        ? 'partial'
        : 'pass';
  return {
    id: gate.id,
    title: gate.title,
    source: gate.source,
    status,
    evidence: { summary: summarize(gate, status, scenarios, mutants, suites, missing), scenarios, mutants, suites },
  };
}

/** Every gate of the catalogue, in catalogue order, with its status and evidence. Throws `GateInputError` on a malformed input. */
export function computeGates(input: GateRunInput): ReadonlyArray<GateResult> {
  validateGateInput(input);
  return GATE_CATALOGUE.map((gate) => evaluate(gate, input));
}
