// Every bad input gives a one-line error and exit code 2, and writes nothing (docs/ARCHITECTURE.md "The CLI contract").

import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { failureOf } from '../../campaign/failure-file.ts';
import { runScenario } from '../../sim/run.ts';
import { cleanInput } from '../reports/fixtures.ts';
import { runCli } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-cli-')();
const file = (name: string, text: string) => {
  const full = path.join(scratch, name);
  writeFileSync(full, text);
  return full;
};

/** A scenario file: a small valid scenario with `change` applied. */
const scenarioFile = (name: string, change: (s: Record<string, any>) => void): string => {
  const scenario: Record<string, any> = {
    name: 'my-scenario',
    title: 'a scenario of my own',
    sources: ['000 §281'],
    workload: { controllers: 3, mix: { 'env-deploy': 1 }, horizonMs: 2000 },
    faults: { profile: {} },
    invariants: ['lease-exclusive'],
    expect: 'pass',
    operations: 10,
  };
  change(scenario);
  return file(name, JSON.stringify(scenario));
};

// A real failure file, then copies of it each damaged in one way.
const base = await (async () => {
  const result = await runScenario({ scenario: loadScenario('db-failover-unmitigated'), seed: 1, store: { name: 'memory', factory: createMemoryStore } });
  return JSON.parse(JSON.stringify(failureOf(result.plan, result))) as Record<string, any>;
})();
const firstOp = (base.plan.steps as Array<{ kind: string }>).findIndex((step) => step.kind === 'op');
const tampered = (name: string, change: (f: Record<string, any>) => void): string => {
  const copy = structuredClone(base);
  change(copy);
  return file(name, JSON.stringify(copy));
};

const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>, RegExp, Record<string, string>?]> = [
  ['unknown scenario', ['run', '--scenario', 'no-such-scenario', '--seed', '1'], /unknown scenario 'no-such-scenario'/],
  ['seed that is not a number', ['run', '--scenario', 'stale-holder', '--seed', 'abc'], /bad seed "abc"/],
  ['negative seed', ['run', '--scenario', 'stale-holder', '--seed', '-4'], /bad seed|unknown option/],
  ['reversed seed range', ['sweep', '--scenario', 'stale-holder', '--seeds', '9..3'], /9 is greater than 3/],
  ['malformed seed range', ['sweep', '--scenario', 'stale-holder', '--seeds', '1-5'], /bad seed range "1-5"/],
  ['bad shard', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--shard', '4/3'], /bad shard "4\/3"/],
  ['bad worker count', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--workers', '0'], /--workers must be 'auto' or an integer/],
  ['several runs at once on a real-fault cluster', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..5', '--workers', '2', '--adapter', 'postgres', '--faults', 'real'], /--workers above 1 needs --faults sim/],
  ['interleaving a store that is not on PostgreSQL', ['run', '--scenario', 'stale-holder', '--seed', '1', '--interleave'], /--interleave needs a store on PostgreSQL/],
  ['an unknown interleaving strategy', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..2', '--adapter', 'postgres', '--interleave', 'fifo'], /bad --interleave "fifo": expected pct or random/],
  ['interleaving with real faults', ['run', '--scenario', 'db-failover', '--seed', '1', '--adapter', 'postgres', '--faults', 'real', '--interleave'], /--interleave runs on simulated faults/],
  ['unknown adapter', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'redis'], /unknown adapter 'redis'/],
  ['unknown mutant', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'mutant:nope'], /unknown mutant 'nope'/],
  ['real faults on the memory store', ['run', '--scenario', 'db-failover', '--seed', '1', '--faults', 'real'], /--faults real needs --adapter postgres/],
  ['missing required option', ['run', '--scenario', 'stale-holder'], /required option '--seed <n>'/],
  ['unknown command', ['explode'], /unknown command 'explode'/],
  ['missing scenario file', ['run', '--scenario', path.join(scratch, 'missing.json'), '--seed', '1'], /cannot read scenario file/],
  ['scenario file that is not JSON', ['run', '--scenario', file('broken.json', '{ "name": '), '--seed', '1'], /is not JSON/],
  ['scenario file that fails validation', ['run', '--scenario', file('invalid.json', JSON.stringify({ name: 'Bad Name', title: '' })), '--seed', '1'], /invalid scenario/],
  ['adapter module that does not exist', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', './nowhere/store.ts'], /adapter module not found/],
  ['adapter module without a factory', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('no-factory.mjs', 'export const x = 1;\n')], /no default export that is a store factory/],
  ['adapter module with an unknown renewal kind', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('renewal-kind.mjs', 'export default async () => ({ name: "x", capabilities: { renewal: "refreshes" }, execute: async () => ({}), close: async () => {} });\n')], /capabilities.renewal is "refreshes", expected 'extends' or 'confirms'/],
  ['adapter module that returns no store', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('not-a-store.mjs', 'export default async () => ({ name: "x" });\n')], /does not implement the store port: missing execute\(\)/],
  ['replay of a malformed failure file', ['replay', file('failure.json', '{"version": 1}')], /not a failure file/],
  ['report from a malformed results file', ['report', file('results.json', '{"scenarios": 3}')], /not valid results/],
  ['mutants with a bad seed budget', ['mutants', '--seeds', 'many'], /bad --seeds "many"/],
  ['check with a bad run count', ['check', '--runs', '0'], /bad --runs "0"/],
  ['check with a path but no seed', ['check', '--path', '1:2'], /--path replays a counterexample and needs the --seed/],
  ['check with a malformed path', ['check', '--seed', '1', '--path', '1;2'], /bad path "1;2"/],
  ['check with a path of an unknown step format', ['check', '--seed', '1', '--path', 'v9:1:2'], /bad path "v9:1:2"/],
  ['check replaying an earlier path in another profile', ['check', '--seed', '1', '--path', 'v2:1:2', '--profile', 'long'], /was printed by an earlier check, whose only world is the default profile/],
  ['check with a seed beyond 31 bits', ['check', '--seed', '4000000000'], /the check's seed is at most/],
  ['race on a store not on PostgreSQL', ['race', '--adapter', 'memory'], /race needs a store on PostgreSQL/],
  ['race with a depth of 1', ['race', '--depth', '1'], /--depth must be 2 or 3/],
  ['race with a depth of 4', ['race', '--depth', '4'], /--depth must be a whole number from 1 to 3/],
  ['race with a bad preemption bound', ['race', '--preemptions', 'two'], /--preemptions must be a whole number from 0 to 100/],
  ['race with an unknown command kind', ['race', '--kinds', 'Acquire,Teleport'], /--kinds: unknown command kind 'Teleport'/],
  ['race with no workers', ['race', '--workers', '0'], /--workers must be a whole number from 1 to 8/],
  ['race with an unknown strategy', ['race', '--strategy', 'bfs'], /bad --strategy 'bfs': expected exhaustive, random or pct/],
  ['race with a PCT depth of 0', ['race', '--strategy', 'pct', '--pct-depth', '0'], /--pct-depth must be a whole number from 1 to 10/],
  ['race with a preemption bound on samples', ['race', '--strategy', 'random', '--preemptions', '2'], /--preemptions bounds --strategy exhaustive/],
  ['race stopping at the first failure of a shard', ['race', '--stop-at-first', '--shard', '1/2'], /--stop-at-first cannot be used with --shard/],
  ['race with a bad seed', ['race', '--strategy', 'pct', '--seed', 'x'], /bad seed "x"/],
  ['race sampling inside functions it already explores', ['race', '--inside-functions', '--function-samples', '5'], /--inside-functions already steps inside them/],
  ['race with a bad number of function samples', ['race', '--function-samples', 'many'], /--function-samples must be a whole number from 0 to 100000/],
  ['replay of a damaged race failure file', ['replay', file('race-failure.json', JSON.stringify({ version: 1, type: 'race', adapter: 'postgres', kinds: ['Acquire'] }))], /not a race failure file/],
  // Scenario files that pass field by field but that no run can combine.
  ['scenario file with network delay min above max', ['run', '--scenario', scenarioFile('delay.json', (s) => (s.faults.profile = { networkDelayMsMin: 10, networkDelayMsMax: 2 })), '--seed', '1'], /networkDelayMsMax \(2\) must be at least networkDelayMsMin \(10\)/],
  ['scenario file with a heartbeat of 0', ['run', '--scenario', scenarioFile('heartbeat.json', (s) => (s.coordination = { heartbeatMs: 0 })), '--seed', '1'], /heartbeatMs must be at least 1/],
  ['scenario file with election timeouts min above max', ['run', '--scenario', scenarioFile('election.json', (s) => (s.coordination = { electionTimeoutMsMin: 600, electionTimeoutMsMax: 300 })), '--seed', '1'], /electionTimeoutMsMin <= electionTimeoutMsMax/],
  ['scenario file with random faults but no nemesis interval', ['sweep', '--scenario', scenarioFile('no-ticks.json', (s) => (s.faults.profile = { crashProbabilityPct: 50, restartDelayMs: 100 })), '--seeds', '1..3'], /crashProbabilityPct takes effect only at nemesis ticks: set nemesisIntervalMs/],
  ['scenario file with coordination faults but no interval', ['run', '--scenario', scenarioFile('no-coordination-ticks.json', (s) => (s.coordination = { faults: { leaderCrashPct: 50 } })), '--seed', '1'], /leaderCrashPct takes effect only at coordination nemesis ticks/],
  // Failure files edited or damaged after they were written.
  ['failure file with an unknown node', ['replay', tampered('node.json', (f) => (f.plan.steps[firstOp].node = 'c99'))], /plan\.steps\.\d+\.node: unknown node 'c99'/],
  ['failure file with a field of the wrong type', ['replay', tampered('type.json', (f) => (f.plan.steps[firstOp].op.ttlMs = 'soon'))], /plan\.steps\.\d+\.op\.ttlMs/],
  ['failure file with a step without its operation', ['replay', tampered('no-op.json', (f) => delete f.plan.steps[firstOp].op)], /plan\.steps\.\d+\.op/],
  ['failure file with a step after the end of the run', ['replay', tampered('far.json', (f) => (f.plan.steps[firstOp].at = 1e15))], /after the run's end/],
  ['failure file with an unknown scenario', ['replay', tampered('scenario.json', (f) => { f.scenario = 'no-such'; f.plan.scenario = 'no-such'; f.replay = f.replay.replace('db-failover-unmitigated', 'no-such'); })], /unknown scenario 'no-such'/],
  ['failure file whose replay line names another seed', ['replay', tampered('seed.json', (f) => (f.replay = f.replay.replace('--seed 1 ', '--seed 2 ')))], /the replay line names seed 2/],
  ['failure file whose replay line names an interleaving inside functions it did not run', ['replay', tampered('inside.json', (f) => (f.replay = `${f.replay} --interleave random-functions`))], /the replay line's --interleave or --concurrency differs from the file's \(none\)/],
  // An output directory that cannot hold the report is refused before any work.
  ['report into a file', ['report', file('stored-results.json', JSON.stringify(cleanInput())), '--out', file('out-file.json', 'x')], /--out .*out-file\.json: it is not a directory/],
  ['report into the proc filesystem', ['report', file('stored-results.json', JSON.stringify(cleanInput())), '--out', '/proc/testbed-out'], /is on the proc filesystem/],
  ['gates into a file', ['gates', '--out', file('gates-out.json', 'x')], /--out .*gates-out\.json: it is not a directory/],
  ['gates into the proc filesystem', ['gates', '--out', '/proc/testbed-out'], /is on the proc filesystem/],
  ['DATABASE_URL that is not a URL', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'postgres'], /DATABASE_URL is not a URL/, { DATABASE_URL: 'notaurl' }],
  ['TypeScript adapter module with a syntax error', ['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', file('syntax.mts', 'export default async () => {\n  return { execute: async () => 1 +, close() {} };\n};\n')], /syntax error at .*syntax\.mts:2:\d+: Unexpected ","/],
];

describe('bad input exits 2 with a one-line message', () => {
  for (const [name, args, message, env] of cases) {
    test(name, () => {
      const result = runCli(args, { cwd: scratch, ...(env === undefined ? {} : { env }) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stdout).toBe('');
      // Nothing half-written: the working directory holds only the inputs this test created.
      expect(readdirSync(scratch).filter((f) => !/\.(json|mjs|mts)$/.test(f))).toEqual([]);
    });
  }
});
