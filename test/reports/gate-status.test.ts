// seed 000 §316, seed 001 §339: every gate is listed and its status follows from the evidence alone, both ways.

import { INVARIANT_NAMES } from '../../model/checkers/index.ts';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../mutants/index.ts';
import { listScenarios } from '../../scenarios/index.ts';
import { computeGates, GATE_CATALOGUE, GateInputError, runVerdict, type GateResult, type GateRunInput } from '../../reports/index.ts';
import { cleanInput, PUBLISHED_MUTANTS, PUBLISHED_SCENARIOS, STALE_REPLAY, staleHolderFailingInput, SUITES } from './fixtures.ts';

function byId(gates: ReadonlyArray<GateResult>, id: string): GateResult {
  const gate = gates.find((g) => g.id === id);
  if (gate === undefined) throw new Error(`no gate ${id}`);
  return gate;
}

function gatesProvenBy(kind: 'scenarios' | 'mutants', name: string): string[] {
  return GATE_CATALOGUE.filter((g) => g.proofs[kind].some((p) => p.split('@')[0] === name)).map((g) => g.id);
}

describe('gate catalogue', () => {
  it('lists the 10 gates of 000 §316 and the 11 gates of 001 §339, first, in the seeds\' order', () => {
    const s316 = GATE_CATALOGUE.filter((g) => g.source === '000 §316');
    const s339 = GATE_CATALOGUE.filter((g) => g.source === '001 §339');
    expect(s316.map((g) => g.title)).toEqual([
      'lease/fencing monotonicity is proven',
      'stale-owner mutation tests pass',
      'idempotency request-digest conflicts are enforced',
      'provider Unknown reconciliation works',
      'deployment/infra/merge integrations are dogfooded',
      'deadlock prevention is tested',
      'force-release safety is audited',
      'DR invalidates stale leases',
      'federation authority integration passes',
      'chaos/concurrency stress tests pass',
    ]);
    expect(s339.map((g) => g.title)).toEqual([
      '3-node failover proven',
      'scheduler epoch fencing proven',
      'membership lifecycle tested',
      'quorum-loss degraded behavior tested',
      'agent/API failover works',
      'rolling upgrades tested',
      'snapshot/restart tested',
      'cluster doctor available',
      'node mTLS/revocation complete',
      'DR procedure exercised',
      'chaos tests pass',
    ]);
    expect(GATE_CATALOGUE.slice(0, 21).map((g) => g.source)).toEqual([...Array(10).fill('000 §316'), ...Array(11).fill('001 §339')]);
  });

  it('lists the 30 acceptance tests of 000 §315 and the 35 of 001 §338, and the 30 architectural invariants of each of 000 §317 and 001 §340', () => {
    expect(GATE_CATALOGUE.filter((g) => g.source === '000 §315')).toHaveLength(30);
    expect(GATE_CATALOGUE.filter((g) => g.source === '001 §338')).toHaveLength(35);
    expect(GATE_CATALOGUE.filter((g) => g.source === '000 §317')).toHaveLength(30);
    expect(GATE_CATALOGUE.filter((g) => g.source === '001 §340')).toHaveLength(30);
    expect(GATE_CATALOGUE).toHaveLength(146);
  });

  it('names only history checkers as a row’s invariants', () => {
    for (const gate of GATE_CATALOGUE) for (const invariant of gate.proofs.invariants) expect(INVARIANT_NAMES, `${gate.id} → ${invariant}`).toContain(invariant);
  });

  it('gives every row a unique stable kebab id prefixed by its seed section', () => {
    const ids = GATE_CATALOGUE.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const gate of GATE_CATALOGUE) expect(gate.id).toMatch(new RegExp(`^${gate.source.replace(' §', '-')}-[a-z0-9]+(-[a-z0-9]+)*$`));
    expect(ids).toContain('000-316-fencing-monotonic');
  });

  it('names only published scenarios and mutants as proofs', () => {
    for (const gate of GATE_CATALOGUE) {
      for (const s of gate.proofs.scenarios) expect(PUBLISHED_SCENARIOS, `${gate.id} → ${s}`).toContain(s.split('@')[0]);
      for (const m of gate.proofs.mutants) expect(PUBLISHED_MUTANTS, `${gate.id} → ${m}`).toContain(m);
      for (const s of gate.proofs.suites) expect(SUITES, `${gate.id} → ${s}`).toContain(s);
    }
  });

  it('credits every published mutant and every scenario to a row, so that each one\'s evidence counts in the report', () => {
    const mutants = new Set(GATE_CATALOGUE.flatMap((g) => g.proofs.mutants));
    const scenarios = new Set(GATE_CATALOGUE.flatMap((g) => g.proofs.scenarios.map((s) => s.split('@')[0])));
    expect(MUTANTS.map((m) => m.name).filter((m) => !mutants.has(m))).toEqual([]);
    expect(listScenarios().map((s) => s.name).filter((s) => !scenarios.has(s))).toEqual([]);
  });

  it('explains every row that nothing proves', () => {
    for (const gate of GATE_CATALOGUE) {
      const proofs = gate.proofs.scenarios.length + gate.proofs.mutants.length + gate.proofs.suites.length;
      if (proofs === 0) expect(gate.note, gate.id).toBeTruthy();
    }
  });
});

describe('computeGates', () => {
  it('passes every gate whose mutants prove it when all evidence holds, leaves gates without a mutant partial and the rest untested', () => {
    const gates = computeGates(cleanInput());
    expect(gates.map((g) => g.id)).toEqual(GATE_CATALOGUE.map((g) => g.id));
    for (const [gate, definition] of gates.map((g, i) => [g, GATE_CATALOGUE[i]!] as const)) {
      const proofs = definition.proofs.scenarios.length + definition.proofs.mutants.length + definition.proofs.suites.length;
      expect(gate.status, gate.id).toBe(proofs === 0 ? 'untested' : definition.proofs.mutants.length === 0 ? 'partial' : 'pass');
      if (gate.status === 'pass') {
        expect(gate.evidence.mutants.some((m) => m.provesGate !== null), gate.id).toBe(true);
        expect(gate.evidence.summary, gate.id).toMatch(/Proved by mutant \S+, caught on \S+ seed \d+ by invariant \S+\./);
      }
      if (gate.status === 'partial') expect(gate.evidence.summary, gate.id).toMatch(/No mutant shows that this rule can break/);
    }
    const fencing = byId(gates, '000-316-fencing-monotonic');
    expect(fencing.evidence.scenarios.map((s) => s.scenario)).toContain('restore-unmitigated');
    expect(fencing.evidence.summary).toMatch(/10 scenario sweeps, 2000 seeds on memory, postgres; 0 failing seeds where none is allowed/);
    expect(fencing.evidence.summary).toMatch(/Mutants caught: 1 of 1/);
  });

  it('fails the gates a violating scenario proves, with the violation and its replay line, and only those', () => {
    const gates = computeGates(staleHolderFailingInput());
    const failing = gates.filter((g) => g.status === 'fail').map((g) => g.id);
    expect(failing).toEqual(gatesProvenBy('scenarios', 'stale-holder'));
    expect(failing).toContain('000-316-stale-owner-mutation');
    const gate = byId(gates, '000-316-stale-owner-mutation');
    const proof = gate.evidence.scenarios.find((s) => s.scenario === 'stale-holder')!;
    expect(proof.holds).toBe(false);
    expect(proof.firstFailure?.replay).toBe(STALE_REPLAY);
    expect(gate.evidence.summary).toMatch(/stale-holder on memory \(sim faults\): 3 of 200 seeds violated no-stale-mutation/);
  });

  it('fails the same gates when the failing seed did not fail again when run again (flaky), and says so', () => {
    const input = staleHolderFailingInput();
    const flaky: GateRunInput = {
      ...input,
      scenarios: input.scenarios.map((s) => (s.firstFailure === undefined ? s : { ...s, firstFailure: { ...s.firstFailure, flaky: true as const } })),
      samples: input.samples.filter((run) => run.valid !== false),
    };
    const gates = computeGates(flaky);
    expect(gates.filter((g) => g.status === 'fail').map((g) => g.id)).toEqual(gatesProvenBy('scenarios', 'stale-holder'));
    expect(byId(gates, '000-316-stale-owner-mutation').evidence.summary).toMatch(/3 of 200 seeds violated no-stale-mutation; seed 8812 did not fail again when run again \(flaky\)/);
  });

  it('a mutant caught only elsewhere, or by another invariant, leaves the gate partial and says where it was not caught', () => {
    const gate = GATE_CATALOGUE.find((g) => g.id === '000-316-stale-owner-mutation')!;
    const rowScenarios = gate.proofs.scenarios;
    const input = cleanInput();
    const elsewhere = PUBLISHED_SCENARIOS.find((s) => !rowScenarios.includes(s))!;
    const otherInvariant = ['capacity'];
    const narrowed = (catches: ReadonlyArray<{ scenario: string; seed: number; invariants: ReadonlyArray<string> }>) => ({
      ...input,
      mutants: input.mutants.map((m) => (gate.proofs.mutants.includes(m.name) ? { ...m, catches } : m)),
    });
    for (const catches of [[{ scenario: elsewhere, seed: 3, invariants: gate.proofs.invariants }], [{ scenario: rowScenarios[0]!, seed: 3, invariants: otherInvariant }]]) {
      const result = byId(computeGates(narrowed(catches)), gate.id);
      expect(result.status).toBe('partial');
      expect(result.evidence.summary).toMatch(new RegExp(`Mutant ${gate.proofs.mutants[0]} was caught, but not on `));
    }
  });

  it('fails the gates of a mutant that was not caught', () => {
    const input = cleanInput();
    const gates = computeGates({ ...input, mutants: input.mutants.map((m) => (m.name === 'key-only-force-release' ? { ...m, caught: false } : m)) });
    expect(gates.filter((g) => g.status === 'fail').map((g) => g.id)).toEqual(gatesProvenBy('mutants', 'key-only-force-release'));
    expect(byId(gates, '000-316-force-release-audited').evidence.summary).toMatch(/Mutant key-only-force-release was not caught in 12 seeds/);
  });

  it('counts a check-only mutant caught by the command-level check as proof of its gates, and fails them and the run when the check missed it', () => {
    const name = 'finish-after-return';
    const input = cleanInput();
    const row = byId(computeGates(input), '001-338-postgres-metadata-authority');
    expect(row.status).toBe('pass');
    expect(row.evidence.summary).toMatch(/Proved by mutant finish-after-return, caught by the command-level check in 4 steps \(no workload reaches it: /);
    expect(runVerdict(input, computeGates(input)).status).toBe('pass');
    const missed = { ...input, mutants: input.mutants.map((m) => (m.name === name ? { ...m, check: { ...m.check!, caught: false } } : m)) };
    const gates = computeGates(missed);
    expect(gates.filter((g) => g.status === 'fail').map((g) => g.id)).toEqual(gatesProvenBy('mutants', name));
    expect(byId(gates, '001-338-postgres-metadata-authority').evidence.summary).toMatch(/Mutant finish-after-return was not caught by the command-level check/);
    expect(runVerdict(missed, gates).failures.map((f) => f.name)).toContain(name);
  });

  it('fails the gates of an -unmitigated scenario that showed no violation', () => {
    const input = cleanInput();
    const scenarios = input.scenarios.map((s) => (s.scenario === 'restore-unmitigated' ? { ...s, failures: 0, firstFailure: undefined } : s));
    const gates = computeGates({ ...input, scenarios });
    expect(gates.filter((g) => g.status === 'fail').map((g) => g.id)).toEqual(gatesProvenBy('scenarios', 'restore-unmitigated'));
    expect(byId(gates, '000-316-dr-invalidates-leases').evidence.summary).toMatch(/expected a violation with the mitigation off, none in 200 seeds/);
  });

  it('fails a gate whose proving suite failed or whose scenario could not be decided', () => {
    const input = cleanInput();
    const gates = computeGates({
      ...input,
      suites: input.suites.map((s) => (s.name === 'idempotency' ? { ...s, failed: 1 } : s)),
      scenarios: input.scenarios.map((s) => (s.scenario === 'deadlock-order' ? { ...s, status: 'unknown' as const } : s)),
    });
    expect(byId(gates, '000-316-idempotency-digest-conflict').status).toBe('fail');
    expect(byId(gates, '000-316-deadlock-prevention').status).toBe('fail');
    expect(byId(gates, '000-316-deadlock-prevention').evidence.summary).toMatch(/could not decide/);
  });

  it('is untested when nothing in the input bears on a gate, and says what would prove it', () => {
    const empty: GateRunInput = { ...cleanInput(), scenarios: [], mutants: [], suites: [], samples: [] };
    const gates = computeGates(empty);
    expect(new Set(gates.map((g) => g.status))).toEqual(new Set(['untested']));
    expect(byId(gates, '000-316-deadlock-prevention').evidence.summary).toBe(
      'Nothing in this run proves it; it would be proven by: deadlock-order, multi-resource-compensation, nested-acquire-order.',
    );
    const dogfood = byId(computeGates(cleanInput()), '001-338-own-ha-dogfood');
    expect(dogfood.status).toBe('untested');
    expect(dogfood.evidence.summary).toMatch(/^Nothing proves this gate\. A property of the deployed product, outside this testbed\./);
  });

  it('does not count a sweep that ran no seed as a proof', () => {
    const input = cleanInput();
    const scenarios = input.scenarios.map((s) => (s.scenario === 'deadlock-order' ? { ...s, seedsRun: 0 } : s));
    const gate = byId(computeGates({ ...input, scenarios }), '000-315-deadlock-avoidance-designed');
    expect(gate.status).toBe('untested');
  });

  it('does not pass on partial evidence: a proof missing from the run leaves the gate untested and is named', () => {
    const input = cleanInput();
    const gate = byId(computeGates({ ...input, scenarios: input.scenarios.filter((s) => s.scenario !== 'force-release-observed-epoch') }), '000-316-force-release-audited');
    expect(gate.status).toBe('untested');
    expect(gate.evidence.summary).toMatch(/Not in this run: force-release-observed-epoch\./);
  });

  it('counts a name@adapter proof only for that adapter', () => {
    const input = cleanInput();
    const memoryOnly = byId(computeGates({ ...input, suites: [], scenarios: input.scenarios.filter((s) => s.adapter !== 'postgres') }), '000-315-postgres-same-semantics');
    expect(memoryOnly.status).toBe('untested');
    const withPostgres = { ...input, suites: [], scenarios: input.scenarios.map((s) => (s.adapter === 'postgres' ? { ...s, failures: 2 } : s)) };
    const gate = byId(computeGates(withPostgres), '000-315-postgres-same-semantics');
    expect(gate.status).toBe('fail');
    expect(gate.evidence.scenarios.map((s) => s.adapter)).toEqual(['postgres']);
  });

  it('rejects an input that contradicts itself instead of reporting on it', () => {
    const input = cleanInput();
    const bad = { ...input, scenarios: input.scenarios.map((s) => (s.scenario === 'restore-unmitigated' ? { ...s, expect: 'pass' as const } : s)) };
    expect(() => computeGates(bad)).toThrow(GateInputError);
    expect(() => computeGates({ ...input, scenarios: [{ ...input.scenarios[0]!, failures: 201 }] })).toThrow(/scenarios\.0\.failures: failures exceeds seedsRun/);
  });
});
