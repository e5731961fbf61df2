// The discrete-event core: one agenda, integer virtual time, and nodes (controllers, the database
// node holding the store, the external provider) that talk only through the simulated network.
// A controller's protocol is written as ordinary async code (controller.ts); each of its blocking
// steps is a fiber that the loop resumes from one event at a time, so exactly one piece of
// protocol code runs at any moment and the order is fixed by the agenda alone. Simulated time does
// not advance while a store call is in flight: the loop awaits it before popping the next event.

import { strict as assert } from 'node:assert';
import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { FaultKind } from '../model/history.ts';
import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import { isReferenceStore } from '../adapters/memory.ts';
import { isSyncStore, type Store, type SyncStore, type TimeSource } from '../adapters/port.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';
import { EventQueue } from './event-queue.ts';
import { Federation } from './federation/federation.ts';
import { HistoryRecorder } from './history-recorder.ts';
import { ShadowModel } from './shadow-model.ts';
import { PortContract } from './port-contract.ts';
import { ProgressWatch } from './progress-watch.ts';
import { routeOp } from './op-routing.ts';
import { Nemesis } from './nemesis.ts';
import { Network } from './network.ts';
import { Provider, type EffectRequest } from './provider.ts';
import type { Plan, ScriptedFault } from './plan.ts';
import { Streams } from './prng.ts';
import { defineCapacities, schedulePlan } from './agenda.ts';
import { MessageRouter } from './message-router.ts';
import { OpLedger } from './op-ledger.ts';
import { FiberDriver, sleepLocal, waitNotify } from './fibers.ts';
import { effectCall, effectCarryingOn, inspectCall, storeCall } from './client-calls.ts';
import { DatabaseNode, type Interleaved } from './database-node.ts';
import { StoreSessions } from './store-sessions.ts';
import { drainedEnd } from './drain.ts';
import { renewalOf } from './renewal-kind.ts';
import { EV_COORD, EV_DB_FLUSH, EV_DELIVER, EV_END_FAULT, EV_EXPIRY, EV_FAULT, EV_LIVENESS, EV_OP, EV_RESTART, EV_RESUME, EV_SNAPSHOT, EV_WAKE } from './sim-node.ts';
import { Fiber, Node, Retired, type DbAnswer, type DbRequest, type SimCoordination, type SimEvents, type Wake } from './sim-node.ts';

export { EV_COORD, Fiber, Node, type Journal, type SimCoordination } from './sim-node.ts';

export interface SimHooks {
  /** Starts the next queued operation of an idle node (controller.ts). */
  startNext(sim: Sim, node: Node): void;
  /** A new incarnation's first fiber: reconcile what the journal says, then continue. */
  recover(sim: Sim, node: Node): void;
  /** Runs the recovery procedure after failover/restore (§272–§276). */
  afterRecoveryEpoch(sim: Sim, scopes: ReadonlyArray<string>): void;
}

/**
 * What a run builds into the simulator besides the plan (sim/run.ts): the coordination layer, made
 * and started from the finished simulator, and the real-fault driver. The store is attached once
 * opened (`attachStore`): its factory needs the simulator's clocks.
 */
export interface SimParts {
  readonly coordination?: (sim: Sim) => SimCoordination;
  readonly realFaults?: RealFaultDriver | null;
  /** The store's answers are typed by the testbed's own code (run.ts StoreChoice.typedAnswers). */
  readonly shapesTyped?: boolean;
}

export class Sim {
  now = 0;
  readonly queue = new EventQueue<SimEvents>();
  readonly history = new HistoryRecorder();
  readonly streams: Streams;
  readonly network: Network;
  readonly nodes = new Map<string, Node>();
  readonly controllers: Node[] = [];
  store!: Store;
  /** The store, when it can answer synchronously (`executeSync`): no await per call. */
  syncStore: SyncStore | null = null;
  faultsOn = true;
  endMs: number;
  dbDown = false;
  dbConn = 0;
  /** Restore/failover generation, kept outside the store (§274). */
  recoveryGeneration = 0;
  readonly provider: Provider;
  /** Protocol-side state shared by the controllers (controller.ts owns its shape). */
  world: unknown = null;
  /** Set when the plan has `coordination`: the controllers are voters and a leader dispatches the operations. */
  readonly coordination: SimCoordination | null;
  /** With real faults, each simulated fault is also applied for real while time stands still. */
  readonly realFaults: RealFaultDriver | null;
  /** Set when the plan has `federation`: the controllers are spread over sites, each domain's authority held by one (sim/federation/). */
  readonly federation: Federation | null;

  constructor(
    readonly plan: Plan,
    readonly policy: ControllerPolicy,
    readonly hooks: SimHooks,
    parts: SimParts = {},
  ) {
    this.streams = new Streams(plan.seed);
    this.network = new Network(plan.faults, plan.seed);
    this.provider = new Provider(plan.seed, this.history, plan.faults.providerTimeoutPct, plan.faults.providerTimeoutAppliedPct);
    this.endMs = plan.horizonMs + plan.livenessBoundMs;
    for (let i = 1; i <= plan.controllers; i++) this.addNode(`c${i}`, true);
    this.addNode('operator', false);
    this.addNode('recovery', false);
    this.realFaults = parts.realFaults ?? null;
    this.federation = plan.federation === undefined ? null : new Federation(this);
    this.contract = new PortContract(parts.shapesTyped !== true);
    // Last: the coordination layer reads the nodes, streams and history made above.
    this.coordination = parts.coordination?.(this) ?? null;
  }

  private addNode(name: string, controller: boolean): void {
    const node = new Node(name);
    this.nodes.set(name, node);
    if (controller) this.controllers.push(node);
    this.newIncarnation(node);
  }

  newIncarnation(node: Node): void {
    node.incarnation++;
    node.proc = `${node.name}#${node.incarnation}`;
    node.fibers = [];
  }

  /** The database node: executes store calls, LISTEN/NOTIFY (sim/database-node.ts). */
  private readonly db = new DatabaseNode(this);

  /** The store's TimeSource is true virtual time; `callerClock` is the executing caller's clock. */
  readonly storeTime: TimeSource = { now: () => this.now };
  readonly callerClock: TimeSource = this.db.callerClock;

  /** The reference model in lockstep with the store (sim/shadow-model.ts); off until a store is attached. */
  shadow = new ShadowModel(false);
  /** The command kinds the store declares (null: every kind of the port). */
  private supported: ReadonlySet<string> | null = null;

  /** Required command kinds the run would have sent and the store does not implement. */
  readonly unsent = new Set<string>();

  supports(kind: Command['kind']): boolean {
    return this.supported === null || this.supported.has(kind);
  }

  /** Whether the controllers carry their operations out (sim/progress-watch.ts). */
  readonly progress = new ProgressWatch();
  /** Answers and errors of the store that the port does not allow (sim/port-contract.ts). */
  readonly contract: PortContract;

  /**
   * `differential`: compare every outcome with the reference model's (off for a store with
   * semantics of its own, and for the memory store, which is that model); `interleaved`: run
   * store calls in batches, a session per node.
   */
  attachStore(store: Store, differential = true, interleaved: Interleaved | null = null): void {
    this.store = store;
    this.db.interleaved = interleaved;
    const declared = store.capabilities?.commands;
    this.supported = declared === undefined ? null : new Set(declared);
    const sessionBound = this.sessions.attached();
    if (store.capabilities?.referenceSemantics === false) this.history.truth(this.now, 'database', 'own-semantics', {});
    const shadowed = differential && store.capabilities?.referenceSemantics !== false && !sessionBound && !isReferenceStore(store);
    this.shadow = new ShadowModel(shadowed, renewalOf(store));
    this.syncStore = isSyncStore(store) ? store : null;
  }

  readonly sessions = new StoreSessions(this);

  // ---- fibers (sim/fibers.ts) ----------------------------------------------------------------

  private readonly fibers = new FiberDriver();

  spawn(node: Node, process: string, body: (fiber: Fiber) => Promise<void>, delayMs = 0): Fiber {
    const fiber = new Fiber(node, process, body);
    node.fibers.push(fiber);
    this.progress.spawned(node, this.history.events.length);
    this.queue.push(this.now + delayMs, EV_WAKE, 0, 0, fiber);
    return fiber;
  }

  /** Parks the running fiber until the agenda wakes it with a matching wait id. */
  block(fiber: Fiber): Promise<Wake> {
    return this.fibers.block(fiber);
  }

  /** A waiter sleeps until a notification on a scope it listens on, or the long fallback poll (sim/fibers.ts; §87). */
  waitNotify(fiber: Fiber, fallbackLocalMs: number): Promise<void> {
    return waitNotify(this, fiber, fallbackLocalMs);
  }

  /** Sleep on the node's local clock. */
  sleepLocal(fiber: Fiber, localMs: number): Promise<void> {
    return sleepLocal(this, fiber, localMs);
  }

  checkAlive(fiber: Fiber): void {
    if (fiber.dead) throw new Retired(fiber.process);
  }

  local(node: Node): number {
    return node.clock.read(this.now);
  }

  // ---- calls (sim/client-calls.ts) -----------------------------------------------------------

  /** A store call: request message → executed at the database on arrival → reply message. */
  call<C extends Command>(fiber: Fiber, command: C, process = fiber.process, listen: ReadonlyArray<string> | null = null): Promise<OutcomeOf<C> | null> {
    this.progress.called(fiber.node);
    return storeCall(this, fiber, command, process, listen);
  }

  /** Calls the provider; a timeout retires the process (sim/client-calls.ts). */
  effect(fiber: Fiber, request: EffectRequest, attempt: number): Promise<boolean> {
    return effectCall(this, fiber, request, attempt);
  }

  /** As `effect`, except that with `carryOn` (only a broken policy) a timeout answers null and the fiber goes on under a new process name. */
  effectOrCarryOn(fiber: Fiber, request: EffectRequest, attempt: number, carryOn: boolean): Promise<boolean | null> {
    return carryOn ? effectCarryingOn(this, fiber, request, attempt) : effectCall(this, fiber, request, attempt);
  }

  inspect(fiber: Fiber, intentId: string): Promise<boolean> {
    return inspectCall(this, fiber, intentId);
  }

  // ---- incarnations -------------------------------------------------------------------------

  /** Ends the node's current incarnation: every fiber stops, in-flight ops become `info`. */
  retire(node: Node, why: string, downMs = 0): void {
    this.progress.retired(node, this.history.events.length);
    this.ledger.retire(node, why);
    this.sessions.ended(node.proc, node.name);
    node.busy = false;
    node.down = true;
    this.coordination?.onRetire(node);
    this.queue.push(this.now + Math.max(1, downMs), EV_RESTART, 0, 0, node);
  }

  /** Ops that stay open across steps (`wait`, `cancel`): closed as unknown when their incarnation retires. */
  private readonly ledger = new OpLedger(this);
  openOp(node: Node, process: string, f: string, value: unknown): void {
    this.ledger.open(node, process, f, value);
  }
  closeOp(process: string, type: 'ok' | 'fail' | 'info', value: unknown): void {
    this.ledger.close(process, type, value);
  }

  // ---- the loop -----------------------------------------------------------------------------

  async run(): Promise<void> {
    const queue = this.queue;
    for (;;) {
      const next = queue.peekTime();
      if ((next === undefined || next > this.endMs) && !this.drainsPast(next ?? Infinity)) break;
      const event = queue.pop()!;
      if (event.time < this.now) assert.fail('time never goes backwards');
      this.now = event.time;
      switch (event.kind) {
        case EV_WAKE: {
          const woken = this.fibers.wake(this, event.data, event.a, event.b);
          if (woken !== null) await woken;
          break;
        }
        case EV_RESUME: {
          const resumed = this.fibers.resumeHeld(this, event.data);
          if (resumed !== null) await resumed;
          break;
        }
        case EV_DELIVER: {
          const pending = this.router.deliver(event.data);
          if (pending !== null) await pending;
          break;
        }
        case EV_OP: routeOp(this, event.data.node, event.data.op, (node) => this.hooks.startNext(this, node)); break;
        case EV_FAULT: await this.nemesis.apply(event.data); break;
        case EV_END_FAULT: await this.nemesis.end(event.data); break;
        case EV_SNAPSHOT: await this.nemesis.takeSnapshot(event.data); break;
        case EV_RESTART: await this.restart(event.data); break;
        case EV_LIVENESS: await this.nemesis.startLiveness(); break;
        case EV_COORD: await this.coordination?.handle(event.data); break;
        case EV_EXPIRY: this.db.expiryDue(event.data, event.a); break;
        case EV_DB_FLUSH: await this.db.flush(); break;
      }
      if (this.sessions.pending) await this.sessions.flush();
      if (this.fibers.failure !== null) throw this.fibers.failure;
    }
    this.coordination?.finish(Math.max(this.now, this.endMs));
  }

  /** Whether the run goes on past its end to `next` because work is still owed (sim/drain.ts). */
  private drainsPast(next: number): boolean {
    if (this.coordination === null) return false;
    const end = drainedEnd(this.history.events, this.plan, this.endMs);
    if (end === null) return false;
    this.endMs = end;
    return next <= this.endMs;
  }

  private async restart(node: Node): Promise<void> {
    this.newIncarnation(node);
    node.down = false;
    node.pausedUntil = 0;
    await this.nemesis.record('restart', { node: node.name, process: node.proc });
    this.coordination?.onRestart(node);
    this.hooks.recover(this, node);
  }

  // ---- messages (sim/message-router.ts) ------------------------------------------------------

  private readonly router = new MessageRouter(this, this.db, this.fibers);

  /** Sends the database's answer to a store call back over the network. */
  reply(m: DbRequest, answer: DbAnswer): void {
    this.router.replyFromDb(m, answer);
  }

  // ---- faults -------------------------------------------------------------------------------

  fault(f: FaultKind, value: Readonly<Record<string, unknown>>): void {
    this.history.fault(this.now, f, value);
  }

  readonly nemesis: Nemesis = new Nemesis(this, (scopes) => this.hooks.afterRecoveryEpoch(this, scopes));

  /** A fault that lasts (partition, loss window, pause, database crash) ends at `time`. */
  scheduleFaultEnd(time: number, fault: ScriptedFault): void {
    this.queue.push(time, EV_END_FAULT, 0, 0, fault);
  }

  readonly realActions: Array<{ f: string; outcome: string }> = [];

  /** Runs a command on the database host itself (setup, recovery): no network, time stands still. */
  executeDirect<C extends Command>(command: C, process = 'database-host'): Promise<OutcomeOf<C>> {
    return this.db.executeDirect(command, process);
  }

  /** Capacities are defined once, before any operation starts (a deployment-time setting). */
  defineCapacities(): Promise<void> {
    return defineCapacities(this);
  }

  /** Puts the plan's steps, the snapshot cadence and the liveness phase on the agenda. */
  schedule(): void {
    schedulePlan(this);
  }
}

