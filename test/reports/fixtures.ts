// Small hand-written evidence for the report tests: two histories in the shapes of
// model/history.ts (a stale holder whose write lands after expiry, and a clean handoff through
// a queue) and gate run inputs built around them.

import { MUTANTS } from '../../mutants/index.ts';
import { INVARIANT_NAMES } from '../../model/checkers/index.ts';
import type { HistoryEvent } from '../../model/history.ts';
import type { GateRunInput, MutantEvidence, ScenarioEvidence } from '../../reports/index.ts';
import type { RunResult } from '../../sim/run-result.ts';

export const PUBLISHED_SCENARIOS = [
  'paused-holder-expiry', 'lease-expiry-new-epoch', 'stale-holder', 'renewal-race', 'split-brain-partition', 'clock-skew',
  'controller-crash-reconcile', 'provider-timeout-unknown', 'cancel-keeps-lease', 'deadlock-order',
  'multi-resource-compensation', 'semaphore-capacity', 'fairness-starvation', 'tenant-isolation', 'idempotency-different-request',
  'cancel-previous-non-supersedable', 'db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated',
  'force-release-observed-epoch', 'force-release-stalled-holders', 'renewal-failure-stops-holder', 'stalled-refresh', 'session-loss', 'stable-holder-names', 'displaced-waiter-recheck', 'standard-mix', 'db-crash', 'swarm-mix',
  'three-node-failover', 'minority-partition', 'quorum-loss', 'stale-leader-epoch', 'scheduler-epoch', 'release-coordinator-epoch',
  'deployment-coordinator-epoch', 'restart-incarnation', 'db-healthy-coordination-lost', 'coordination-healthy-db-lost',
  'standalone-coordination', 'membership-change', 'sql-contention', 'sql-renewal-race', 'sql-release-race', 'idempotency-late-completion', 'provider-fencing',
  'raft-failover', 'raft-old-term-commit', 'raft-voter-restart', 'raft-voter-state-loss', 'raft-rolling-upgrade', 'raft-leader-transfer', 'raft-compaction', 'agent-failover',
  'jobs-db-failover', 'node-impostor', 'platform-leader-election', 'maintenance-window', 'raw-api-proposal', 'cas-outage', 'regions-wan-cut', 'raft-membership-change',
  'lease-handoff', 'idempotency-unknown-outcome', 'federation-site-failover', 'lease-loss-after-return', 'retried-and-late-requests',
] as const;

/** Every mutant of the catalogue, as `testbed mutants` publishes them. */
export const PUBLISHED_MUTANTS: ReadonlyArray<string> = MUTANTS.map((m) => m.name);

export const SUITES = ['check-postgres', 'check-mutants', 'conformance', 'conformance-postgres', 'differential-postgres', 'idempotency', 'scope-identity', 'sql-races-exhaustive', 'sql-races-interleaved'] as const;

/** A message with every character that markup must escape. */
export const HOSTILE_MESSAGE = `write under token 1 accepted after token 2 <img src=x onerror="window.__injected=1"> & 'quoted' ]]> \u0001`;

type Draft = Omit<HistoryEvent, 'index'>;

function indexed(drafts: ReadonlyArray<Draft>): HistoryEvent[] {
  return drafts.map((event, index) => ({ ...event, index }) as HistoryEvent);
}

const SCOPE = 'env:prod/deploy';
const lease = (holder: string, token: number, acquiredAt: number, ttlMs: number) => ({ scope: SCOPE, holder, token, acquiredAt, expiresAt: acquiredAt + ttlMs });

/** c1 acquires, pauses past its expiry, c2 takes over from the queue, then c1's stale write lands. */
export const STALE_HISTORY: ReadonlyArray<HistoryEvent> = indexed([
  { time: 0, process: 'c1', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: SCOPE, holder: 'c1', ttlMs: 1000 } },
  { time: 2, process: 'c1', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: lease('c1', 1, 2, 1000) } },
  { time: 50, process: 'c2', type: 'invoke', f: 'Enqueue', value: { kind: 'Enqueue', scope: SCOPE, waiterId: 'w2', holder: 'c2', priority: 0 } },
  { time: 51, process: 'c2', type: 'ok', f: 'Enqueue', value: { kind: 'Enqueued', position: 1 } },
  { time: 300, process: 'nemesis', type: 'fault', f: 'pause', value: { node: 'c1' } },
  { time: 1010, process: 'c2', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: SCOPE, holder: 'c2', ttlMs: 1000, waiterId: 'w2' } },
  { time: 1012, process: 'c2', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: lease('c2', 2, 1012, 1000) } },
  { time: 1100, process: 'c2', type: 'invoke', f: 'Mutate', value: { kind: 'Mutate', scope: SCOPE, aggregate: 'release-7', holder: 'c2', token: 2, expectedVersion: 0 } },
  { time: 1102, process: 'c2', type: 'ok', f: 'Mutate', value: { kind: 'Accepted', version: 1, token: 2 } },
  { time: 1102, process: 'resource', type: 'truth', f: 'mutation-accepted', value: { scope: SCOPE, aggregate: 'release-7', token: 2, holder: 'c2', version: 1 } },
  { time: 1400, process: 'nemesis', type: 'fault', f: 'resume', value: { node: 'c1' } },
  { time: 1410, process: 'c1', type: 'invoke', f: 'Mutate', value: { kind: 'Mutate', scope: SCOPE, aggregate: 'release-7', holder: 'c1', token: 1, expectedVersion: 1 } },
  { time: 1412, process: 'c1', type: 'ok', f: 'Mutate', value: { kind: 'Accepted', version: 2, token: 1 } },
  { time: 1412, process: 'resource', type: 'truth', f: 'mutation-accepted', value: { scope: SCOPE, aggregate: 'release-7', token: 1, holder: 'c1', version: 2 } },
  { time: 1500, process: 'nemesis', type: 'fault', f: 'partition', value: { groups: [['c2'], ['db']] } },
  { time: 1800, process: 'nemesis', type: 'fault', f: 'heal', value: {} },
  { time: 1900, process: 'c2', type: 'invoke', f: 'Release', value: { kind: 'Release', scope: SCOPE, holder: 'c2', token: 2 } },
  { time: 1902, process: 'c2', type: 'ok', f: 'Release', value: { kind: 'Released', token: 2 } },
]);

export const STALE_VIOLATION = { invariant: 'no-stale-mutation', message: HOSTILE_MESSAGE, events: [12, 13], scope: SCOPE };

export const STALE_REPLAY = 'replay: npx testbed run --scenario stale-holder --seed 8812 --adapter memory';

/** Two holders hand the scope over cleanly, one after the other. */
export const CLEAN_HISTORY: ReadonlyArray<HistoryEvent> = indexed([
  { time: 0, process: 'c1', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 'db:orders', holder: 'c1', ttlMs: 500 } },
  { time: 1, process: 'c1', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 'db:orders', holder: 'c1', token: 1, acquiredAt: 1, expiresAt: 501 } } },
  { time: 10, process: 'c2', type: 'invoke', f: 'Enqueue', value: { kind: 'Enqueue', scope: 'db:orders', waiterId: 'w1', holder: 'c2', priority: 0 } },
  { time: 11, process: 'c2', type: 'ok', f: 'Enqueue', value: { kind: 'Enqueued', position: 1 } },
  { time: 200, process: 'c1', type: 'invoke', f: 'Release', value: { kind: 'Release', scope: 'db:orders', holder: 'c1', token: 1 } },
  { time: 201, process: 'c1', type: 'ok', f: 'Release', value: { kind: 'Released', token: 1 } },
  { time: 205, process: 'c2', type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope: 'db:orders', holder: 'c2', ttlMs: 500, waiterId: 'w1' } },
  { time: 206, process: 'c2', type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope: 'db:orders', holder: 'c2', token: 2, acquiredAt: 206, expiresAt: 706 } } },
  { time: 400, process: 'c2', type: 'invoke', f: 'Release', value: { kind: 'Release', scope: 'db:orders', holder: 'c2', token: 2 } },
  { time: 401, process: 'c2', type: 'ok', f: 'Release', value: { kind: 'Released', token: 2 } },
]);

function run(scenario: string, seed: number, history: ReadonlyArray<HistoryEvent>, violations: RunResult['violations']): RunResult {
  return {
    scenario,
    seed,
    adapter: 'memory',
    faults: 'sim',
    traceHash: `${scenario}-${seed}-hash`,
    events: history.length,
    operations: history.filter((e) => e.type === 'ok').length,
    valid: violations.length === 0,
    violations,
    replay: `replay: npx testbed run --scenario ${scenario} --seed ${seed} --adapter memory`,
    simulatedMs: Math.max(...history.map((e) => e.time)) + 100,
    history,
  };
}

export const STALE_RUN: RunResult = run('stale-holder', 8812, STALE_HISTORY, [STALE_VIOLATION]);
export const CLEAN_RUN: RunResult = run('standard-mix', 3, CLEAN_HISTORY, []);

function scenarioEvidence(name: string): ScenarioEvidence {
  const unmitigated = name.endsWith('-unmitigated');
  return {
    scenario: name,
    title: `${name} title`,
    sources: ['000 §281'],
    adapter: 'memory',
    faults: 'sim',
    expect: unmitigated ? 'violation' : 'pass',
    seedsRun: 200,
    failures: unmitigated ? 37 : 0,
    ...(unmitigated
      ? { firstFailure: { seed: 4, replay: `replay: npx testbed run --scenario ${name} --seed 4`, violations: [{ invariant: 'restore-invalidates', message: 'pre-restore lease honoured' }] } }
      : {}),
  };
}

/** Every history checker, so that a fixture catch satisfies whatever invariants a gate names. */
export const ALL_INVARIANTS = [...INVARIANT_NAMES];

function mutantEvidence(name: string): MutantEvidence {
  const checkOnly = MUTANTS.find((m) => m.name === name)?.checkOnly;
  // A mutant no workload reaches is not hunted: the command-level check caught it.
  if (checkOnly !== undefined) {
    return { name, bug: `${name} bug`, caught: false, seedsTried: 0, checkOnly, check: { caught: true, firstFailureMs: 300, steps: 4, replay: `npx testbed check --adapter mutant:${name} --seed 1 --path v2:3:1` } };
  }
  return {
    name,
    bug: `${name} bug`,
    caught: true,
    seedsTried: 12,
    firstFailingSeed: 11,
    shrunkOperations: 6,
    replay: `replay: npx testbed run --scenario standard-mix --seed 11 --adapter mutant:${name}`,
    // Caught on every published scenario by every invariant: every gate that lists the mutant is proved by it.
    catches: PUBLISHED_SCENARIOS.map((scenario) => ({ scenario, seed: 11, invariants: ALL_INVARIANTS })),
  };
}

/** Everything published ran and held: every gate with proofs passes. */
export function cleanInput(): GateRunInput {
  return {
    startedAt: '2026-11-29T14:00:00.000Z',
    finishedAt: '2026-11-29T14:05:00.000Z',
    // The gate run also sweeps on PostgreSQL; the sweeps a row names stand for it here.
    scenarios: [...PUBLISHED_SCENARIOS.map(scenarioEvidence), ...['standard-mix', 'federation-site-failover'].map((s) => ({ ...scenarioEvidence(s), adapter: 'postgres' }))],
    mutants: PUBLISHED_MUTANTS.map(mutantEvidence),
    suites: SUITES.map((name) => ({ name, passed: 40, failed: 0 })),
    samples: [CLEAN_RUN],
  };
}

/** The clean input, except that stale-holder failed on seed 8812 with a stale write. */
export function staleHolderFailingInput(): GateRunInput {
  const input = cleanInput();
  return {
    ...input,
    scenarios: input.scenarios.map((s) =>
      s.scenario === 'stale-holder'
        ? { ...s, failures: 3, firstFailure: { seed: 8812, replay: STALE_REPLAY, violations: [STALE_VIOLATION] } }
        : s,
    ),
    samples: [CLEAN_RUN, STALE_RUN],
  };
}

/** Five holders queue on one scope and take it in turn while the controller clocks skew. */
export const CONTENTION_HISTORY: ReadonlyArray<HistoryEvent> = indexed([
  { time: 0, process: 'nemesis', type: 'fault', f: 'clock-skew', value: { node: 'c3', skewMs: 250 } },
  ...[1, 2, 3, 4, 5].flatMap((n): Draft[] => {
    const scope = 'device:pixel-8';
    const holder = `c${n}`;
    const enqueuedAt = 2 * n;
    const acquiredAt = 120 * (n - 1) + 10;
    return [
      { time: enqueuedAt, process: holder, type: 'invoke', f: 'Enqueue', value: { kind: 'Enqueue', scope, waiterId: `w${n}`, holder, priority: 0 } },
      { time: enqueuedAt + 1, process: holder, type: 'ok', f: 'Enqueue', value: { kind: 'Enqueued', position: n } },
      { time: acquiredAt - 1, process: holder, type: 'invoke', f: 'Acquire', value: { kind: 'Acquire', scope, holder, ttlMs: 300, waiterId: `w${n}` } },
      { time: acquiredAt, process: holder, type: 'ok', f: 'Acquire', value: { kind: 'Acquired', lease: { scope, holder, token: n, acquiredAt, expiresAt: acquiredAt + 300 } } },
      { time: acquiredAt + 100, process: holder, type: 'invoke', f: 'Release', value: { kind: 'Release', scope, holder, token: n } },
      { time: acquiredAt + 101, process: holder, type: 'ok', f: 'Release', value: { kind: 'Released', token: n } },
    ];
  }).sort((a, b) => a.time - b.time),
]);

export const CONTENTION_RUN: RunResult = run('fairness-starvation', 21, CONTENTION_HISTORY, []);
