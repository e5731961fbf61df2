// Running a scenario: `generatePlan(scenario, seed)` decides everything up front, then
// `executePlan(plan, options)` plays it against a store and judges the history with the
// scenario's checkers. Any sub-list of a plan's steps is itself a valid plan (for shrinking).

import type { Store, StoreFactory } from '../adapters/port.ts';
import type { InterleaveStrategy, Interleaving } from '../adapters/interleaving.ts';
import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import { checkAll } from '../model/checkers/index.ts';
import type { Scenario } from '../scenarios/schema.ts';
import { controllerHooks } from './controller.ts';
import { controllerPolicy, type ControllerPolicy } from '../model/controller-policy.ts';
import { CoordinationService } from './coordination/service.ts';
import { withAgents } from './coordination/agents.ts';
import { RaftService } from './raft/raft-service.ts';
import { Sim, type SimCoordination } from './engine.ts';
import type { CoordinationOptions } from '../scenarios/coordination-options.ts';
import createMemoryStore from '../adapters/memory.ts';
import type { CommandKind } from '../model/commands.ts';
import { lackingCommands, type Lacking } from './capabilities.ts';
import { coverageOf } from './coverage.ts';
import { renewalOf } from './renewal-kind.ts';
import { fenceIdsFor, fencingOf, withFenceIds, withFenceIdsInterleaved } from './fence-ids.ts';
import type { Verdict, Violation } from '../model/verdict.ts';
import { generatePlan } from './generate-plan.ts';
import type { Plan } from './plan.ts';
import type { RunResult } from './run-result.ts';

export { generatePlan };
export type { Plan, PlanStep, OpSpec } from './plan.ts';

export interface StoreChoice {
  readonly name: string;
  readonly factory: StoreFactory;
  /**
   * The store is the testbed's own, in its process (the memory store and its mutants): the
   * compiler types its answers, so their shapes are not validated on the simulator's hot path
   * (port-contract.ts). Every other store's answers are.
   */
  readonly typedAnswers?: boolean;
}

export interface ExecuteOptions {
  readonly store: StoreChoice;
  readonly faults?: 'sim' | 'real';
  /** With `faults: 'real'`, every simulated fault is also applied for real through this driver. */
  readonly realFaults?: RealFaultDriver;
  readonly policy?: Partial<ControllerPolicy>;
  /** Overrides the replay line (the default names the plan's scenario, seed and adapter). */
  readonly replay?: string;
  /**
   * Compare every store outcome with the reference model's in lockstep (default true; a store
   * that declares `capabilities.referenceSemantics: false` is never compared).
   */
  readonly differential?: boolean;
  /**
   * Controlled interleaving (adapters/interleaving.ts): store calls arriving within the window
   * run at once, a session per node, statement by statement in a seeded order. Replaces `store.factory`.
   */
  readonly interleave?: Interleaving;
}

export interface RunScenarioOptions extends ExecuteOptions {
  readonly scenario: Scenario;
  readonly seed: number;
  /** A (possibly shrunk) plan to run instead of the one the seed generates. */
  readonly plan?: Plan;
}

/** What a run returns: the RunResult contract plus the plan it played (derived fault options included). */
export interface SimRunResult extends RunResult {
  readonly plan: Plan;
  readonly policy: ControllerPolicy;
  /** Real fault actions taken, in order, when `faults: 'real'`. */
  readonly realActions: ReadonlyArray<{ readonly f: string; readonly outcome: string }>;
  /** What the shadow model compared, and why it stopped following the store (null: it followed it to the end). Absent when the run did not run. */
  readonly shadow?: { readonly compared: number; readonly stoppedBecause: string | null };
}

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function replayLine(scenario: string, seed: number, adapter: string, faults: 'sim' | 'real', interleave?: InterleaveStrategy): string {
  const concurrency = interleave === undefined ? '' : interleave === 'free' ? ' --concurrency free' : ` --interleave ${interleave}`;
  return `npx testbed run --scenario ${shellWord(scenario)} --seed ${seed} --adapter ${shellWord(adapter)}${faults === 'real' ? ' --faults real' : ''}${concurrency}`;
}

export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<SimRunResult> {
  const faults = options.faults ?? 'sim';
  if (faults === 'real' && options.realFaults === undefined) throw new Error("faults 'real' needs a real fault driver");
  const policy = controllerPolicy({ ...(options.policy ?? {}) });
  const settings = plan.coordination;
  const sim = new Sim(plan, policy, controllerHooks, {
    shapesTyped: options.store.typedAnswers === true,
    realFaults: faults === 'real' ? (options.realFaults ?? null) : null,
    ...(settings === undefined ? {} : { coordination: (built: Sim) => startCoordination(built, settings) }),
  });
  const storeOptions = { time: sim.storeTime, callerClock: sim.callerClock };
  const opened = options.interleave === undefined ? null : await options.interleave.open(storeOptions, [...sim.nodes.keys()]);
  const own = opened?.main ?? (await options.store.factory(storeOptions));
  // A store whose fences are not integers is seen through integer ids (sim/fence-ids.ts).
  const ids = fenceIdsFor(own);
  const interleaved = opened === null || ids === null ? opened : withFenceIdsInterleaved(opened, ids);
  const store = interleaved?.main ?? (ids === null ? own : withFenceIds(own, ids));
  let lacking: Lacking;
  try {
    lacking = withoutFences(await lackingFor(plan, store.capabilities?.commands, options.policy), fencingOf(own), plan.invariants);
    if (lacking.commands.length > 0) return untestedRun(plan, options, faults, policy, `the store lacks ${lacking.commands.join(', ')}`, store.capabilities?.commands);
    if (ids !== null) sim.history.truth(sim.now, 'database', 'fencing', { kind: fencingOf(own) });
    if (renewalOf(own) === 'confirms') sim.history.truth(sim.now, 'database', 'renewal', { kind: 'confirms' });
    sim.attachStore(store, (options.differential ?? true) && ids === null, interleaved === null ? null : { stores: interleaved, interleaving: options.interleave! });
    await sim.defineCapacities();
    await sim.federation?.start();
    sim.schedule();
    await sim.run();
    if (plan.invariants.includes('cluster-doctor')) await recordClusterPicture(sim, store);
  } finally {
    await (interleaved ?? store).close();
  }
  // The run took a path the reference run did not, and needed a command the store lacks.
  if (sim.unsent.size > 0) return untestedRun(plan, options, faults, policy, `the store lacks ${[...sim.unsent].sort().join(', ')}`, store.capabilities?.commands);
  const recorder = sim.history;
  const history = recorder.events;
  const unjudged = new Set(lacking.unjudged.map((u) => u.invariant));
  const judged = plan.invariants.filter((invariant) => !unjudged.has(invariant));
  const verdict = withFindings(checkAll(history, judged), [...sim.contract.violations(), ...sim.shadow.violations(), ...sim.progress.violations(sim.controllers, sim.history.events)]);
  // Every invariant of the scenario reads a command the store lacks: a clean run proved nothing.
  if (judged.length === 0 && plan.invariants.length > 0 && verdict.valid !== false) {
    return untestedRun(plan, options, faults, policy, `every invariant of the scenario reads a command the store lacks (${lacking.unjudged.map((u) => `${u.invariant}: ${u.lacks.join(', ')}`).join('; ')})`, store.capabilities?.commands);
  }
  return {
    scenario: plan.scenario,
    seed: plan.seed,
    adapter: options.store.name,
    faults,
    // Taken when first read: a pass over the whole history, which a sweep reads of failing runs only.
    get traceHash(): string {
      return recorder.traceHash();
    },
    events: history.length,
    operations: sim.history.completedOps,
    valid: verdict.valid,
    violations: verdict.violations,
    replay: options.replay ?? replayLine(plan.scenario, plan.seed, options.store.name, faults, options.interleave?.strategy),
    simulatedMs: sim.now,
    history,
    storeTimes: sim.history.storeTimes,
    plan,
    policy,
    realActions: sim.realActions,
    shadow: { compared: sim.shadow.compared, stoppedBecause: sim.shadow.stoppedBecause },
    ...(lacking.unjudged.length === 0 ? {} : { unjudged: lacking.unjudged }),
    ...storeCommandsOf(store.capabilities?.commands),
    ...(renewalOf(store) === 'confirms' ? { storeRenewal: 'confirms' as const } : {}),
  };
}

/** The command kinds a store declares, for coverage (nothing when it implements every kind). */
function storeCommandsOf(declared: ReadonlyArray<string> | undefined): { readonly storeCommands?: ReadonlyArray<string> } {
  return declared === undefined ? {} : { storeCommands: [...declared] };
}

/** The coordination layer of a plan: its consensus, with the agents streaming its job events, started. */
function startCoordination(sim: Sim, settings: CoordinationOptions): SimCoordination {
  const service = settings.consensus === 'raft' ? new RaftService(sim, settings) : new CoordinationService(sim, settings);
  const coordination = withAgents(service, sim, settings);
  coordination.start();
  return coordination;
}

/** What a store declaring only `declared` lacks for `plan`, from what the plan sends on the reference store. */
async function lackingFor(plan: Plan, declared: ReadonlyArray<CommandKind> | undefined, policy: ExecuteOptions['policy']): Promise<Lacking> {
  if (declared === undefined) return { commands: [], unjudged: [] };
  const reference = await executePlan(plan, { store: { name: 'memory', factory: createMemoryStore, typedAnswers: true }, differential: false, ...(policy === undefined ? {} : { policy }) });
  return lackingCommands(coverageOf(reference.history).commands, declared, plan.invariants);
}

/**
 * The cluster doctor's picture as the run ends (model/checkers/cluster-doctor.ts): the store's role
 * epochs from its Inspect view, and the coordination state. Nothing is recorded when either is
 * missing (no coordination, a store without Inspect, or an Inspect that failed): the checker then
 * cannot judge the run.
 */
async function recordClusterPicture(sim: Sim, store: Store): Promise<void> {
  if (sim.coordination === null || !sim.supports('Inspect')) return;
  let answer: unknown;
  try {
    answer = await store.execute({ kind: 'Inspect' });
  } catch {
    return;
  }
  const view = (answer as { kind?: string; view?: { roleEpochs?: unknown } }).view;
  if ((answer as { kind?: string }).kind !== 'Snapshot' || !Array.isArray(view?.roleEpochs)) return;
  sim.history.truth(sim.now, 'database', 'cluster-doctor', { storeRoleEpochs: view.roleEpochs, ...sim.coordination.picture() });
}

/** A store without fences cannot be judged on the order of its tokens: the ids the run gives them are ordered by construction. */
function withoutFences(lacking: Lacking, fencing: string, invariants: ReadonlyArray<string>): Lacking {
  if (fencing !== 'none' || !invariants.includes(FENCING_MONOTONIC)) return lacking;
  return { ...lacking, unjudged: [...lacking.unjudged, { invariant: FENCING_MONOTONIC, lacks: ['fencing tokens'] }] };
}

const FENCING_MONOTONIC = 'fencing-monotonic';

function untestedRun(plan: Plan, options: ExecuteOptions, faults: 'sim' | 'real', policy: ControllerPolicy, reason: string, declared: ReadonlyArray<string> | undefined): SimRunResult {
  return {
    ...storeCommandsOf(declared),
    scenario: plan.scenario,
    seed: plan.seed,
    adapter: options.store.name,
    faults,
    traceHash: '',
    events: 0,
    operations: 0,
    valid: 'unknown',
    untested: reason,
    violations: [],
    replay: options.replay ?? replayLine(plan.scenario, plan.seed, options.store.name, faults, options.interleave?.strategy),
    simulatedMs: 0,
    history: [],
    plan,
    policy,
    realActions: [],
  };
}

/** The history checkers' verdict with the run's own findings (port contract, shadow model) after theirs. */
function withFindings(verdict: Verdict, extra: ReadonlyArray<Violation>): Verdict {
  if (extra.length === 0) return verdict;
  return { valid: false, violations: [...verdict.violations, ...extra] };
}

/** Runs a scenario's plan under the policy flags the scenario flips, and over them those of `options` (a policy mutant's). */
export async function runScenario(options: RunScenarioOptions): Promise<SimRunResult> {
  const plan = options.plan ?? generatePlan(options.scenario, options.seed);
  if (options.scenario.policy === undefined) return executePlan(plan, options);
  return executePlan(plan, { ...options, policy: { ...options.scenario.policy, ...(options.policy ?? {}) } });
}
