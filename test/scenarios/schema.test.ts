// seed 000 §277–§302 as data: scenarios are validated on load, and malformed data is rejected with a clear one-line message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScenarios, loadScenario, parseScenario, ScenarioError } from '../../scenarios/index.ts';

const valid = {
  name: 'my-scenario',
  title: 'A scenario',
  sources: ['000 §281'],
  workload: { controllers: 2, mix: { 'env-deploy': 1 }, horizonMs: 1_000 },
  faults: {},
  invariants: ['one-owner-per-epoch'],
  expect: 'pass',
  operations: 5,
};

function rejection(data: unknown): string {
  try {
    parseScenario(data, 'input');
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario validation', () => {
  it('accepts well-formed data and fills defaults', () => {
    const s = parseScenario(valid, 'input');
    expect(s.workload.leaseTtlMs).toBe(3_000);
    expect(s.mitigations.recoveryEpoch).toBe(true);
    expect(s.faults.scripted).toEqual([]);
  });

  it('rejects a name that is not kebab-case, on one line naming the field', () => {
    const message = rejection({ ...valid, name: 'My Scenario' });
    expect(message).toMatch(/^invalid scenario input: name: must be kebab-case/);
    expect(message).not.toContain('\n');
  });

  it('rejects an unknown invariant, a bad source citation, an unknown fault knob and a negative duration', () => {
    expect(rejection({ ...valid, invariants: ['two-owners-ok'] })).toMatch(/invariants\.0/);
    expect(rejection({ ...valid, sources: ['section 281'] })).toMatch(/sources\.0: must look like '000 §281'/);
    expect(rejection({ ...valid, faults: { profile: { lossPct: 5 } } })).toMatch(/faults\.profile/);
    expect(rejection({ ...valid, faults: { scripted: [{ f: 'pause', at: 0, node: 'c1', durationMs: -5 }] } })).toMatch(/faults\.scripted\.0\.durationMs/);
  });

  it('bounds clock drift at 10%, the bound a lease window assumes, and takes work steps', () => {
    expect(rejection({ ...valid, faults: { profile: { clockDriftPpmMax: 100_001 } } })).toMatch(/faults\.profile\.clockDriftPpmMax/);
    expect(parseScenario({ ...valid, faults: { profile: { clockDriftPpmMax: 100_000 } } }, 'input').faults.profile.clockDriftPpmMax).toBe(100_000);
    expect(parseScenario({ ...valid, workload: { ...valid.workload, workStepMs: 25 } }, 'input').workload.workStepMs).toBe(25);
    expect(rejection({ ...valid, workload: { ...valid.workload, workStepMs: -1 } })).toMatch(/workload\.workStepMs/);
    expect(rejection({ ...valid, invariants: ['work-within-lease'] })).toMatch(/work-within-lease judges work steps: set workload.workStepMs/);
    expect(rejection({ ...valid, invariants: ['work-within-lease'], workload: { ...valid.workload, workStepMs: 25, mix: { 'api-request': 1 } } })).toMatch(/mix an exclusive workload/);
    expect(parseScenario({ ...valid, invariants: ['work-within-lease'], workload: { ...valid.workload, workStepMs: 25 } }, 'input').invariants).toEqual(['work-within-lease']);
  });

  it('rejects a scripted fault on a controller the workload does not have, and membership faults without coordination', () => {
    expect(rejection({ ...valid, faults: { scripted: [{ f: 'crash', at: 0, node: 'c3', downMs: 10 }] } })).toMatch(/names a controller c<n> beyond workload\.controllers/);
    expect(rejection({ ...valid, faults: { scripted: [{ f: 'partition', at: 0, durationMs: 5, from: 'c1', to: 'c7' }] } })).toMatch(/beyond workload\.controllers/);
    expect(rejection({ ...valid, faults: { scripted: [{ f: 'member-add', at: 0, node: 'c2' }] } })).toMatch(/membership faults .* need coordination/);
    expect(parseScenario({ ...valid, faults: { scripted: [{ f: 'crash', at: 0, node: 'c2', downMs: 10 }] } }, 'input').faults.scripted).toHaveLength(1);
  });

  it('rejects what only message-level consensus judges or does, without it', () => {
    expect(rejection({ ...valid, invariants: ['cluster-doctor'] })).toMatch(/cluster-doctor judges the coordination state against the store: it needs coordination/);
    const coordinated = { ...valid, coordination: { voters: 1 } };
    expect(rejection({ ...coordinated, invariants: ['raft-election-safety'] })).toMatch(/raft-\* invariants, feature-activation and drained-leader-stops judge message-level consensus/);
    expect(rejection({ ...coordinated, coordination: { voters: 1, faults: { messageLossPct: 5 } } })).toMatch(/act on message-level consensus/);
    expect(rejection({ ...coordinated, faults: { scripted: [{ f: 'voter-state-loss', at: 0, node: 'c1', downMs: 10 }] } })).toMatch(/voter-state-loss, voter-upgrade and leader-transfer act on message-level consensus/);
    const raft = { ...valid, coordination: { voters: 1, consensus: 'raft' } };
    // Membership changes run on both consensus kinds.
    expect(parseScenario({ ...raft, workload: { ...valid.workload, controllers: 2 }, faults: { scripted: [{ f: 'member-add', at: 0, node: 'c2' }] } }, 'input').faults.scripted).toHaveLength(1);
    // What only the abstract service's daemons do, and faults that need their subsystem.
    expect(rejection({ ...raft, faults: { scripted: [{ f: 'impostor', at: 0, credential: 'none' }] } })).toMatch(/need coordination with consensus 'abstract'/);
    expect(rejection({ ...coordinated, faults: { scripted: [{ f: 'cas-outage', at: 0, durationMs: 10 }] } })).toMatch(/set coordination.artifacts to true/);
    expect(rejection({ ...coordinated, faults: { scripted: [{ f: 'wan-partition', at: 0, durationMs: 10 }] } })).toMatch(/set coordination.regions above 1/);
    expect(rejection({ ...raft, invariants: ['quorum-loss-degraded'] })).toMatch(/quorum-loss-degraded judges the abstract service's quorum records/);
    expect(rejection({ ...coordinated, invariants: ['drained-leader-stops'] })).toMatch(/judge message-level consensus/);
    expect(rejection({ ...raft, faults: { scripted: [{ f: 'voter-upgrade', at: 0, node: 'c2', downMs: 10 }] } })).toMatch(/name a voter: c<n> with n at most coordination.voters/);
    expect(parseScenario({ ...raft, invariants: ['raft-election-safety'] }, 'input').coordination?.consensus).toBe('raft');
  });

  it('rejects a violation scenario that is neither -unmitigated nor a policy flip', () => {
    expect(rejection({ ...valid, expect: 'violation' })).toMatch(/-unmitigated/);
  });

  it('loads a .json file, and reports an unknown name or unreadable file as ScenarioError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const path = join(dir, 'mine.json');
    writeFileSync(path, JSON.stringify(valid));
    expect(loadScenario(path).name).toBe('my-scenario');
    writeFileSync(path, '{ not json');
    expect(() => loadScenario(path)).toThrow(ScenarioError);
    expect(() => loadScenario('no-such-scenario')).toThrow(/unknown scenario 'no-such-scenario'/);
  });

  it('ships at least 18 passing scenarios, each citing seed sections, plus the -unmitigated demonstrations', () => {
    const all = listScenarios();
    const passing = all.filter((s) => s.expect === 'pass');
    expect(passing.length).toBeGreaterThanOrEqual(18);
    for (const s of all) expect(s.sources.length).toBeGreaterThan(0);
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(['standard-mix', 'db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated']));
    // 24 scheduled operations: about 200 client operations per run (the throughput standard).
    expect(all.find((s) => s.name === 'standard-mix')?.operations).toBe(24);
  });
});
