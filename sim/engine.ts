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
import type { Store, TimeSource } from '../adapters/port.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';
import { EventQueue } from './event-queue.ts';
import { HistoryRecorder } from './history-recorder.ts';
import { ShadowModel } from './shadow-model.ts';
import { PortContract } from './port-contract.ts';
import { Nemesis } from './nemesis.ts';
import { Network } from './network.ts';
import { Provider, type EffectRequest } from './provider.ts';
import type { OpSpec, Plan } from './plan.ts';
import type { CoordinationFault } from './coordination/faults.ts';
import { Streams } from './prng.ts';
import { FiberDriver, sleepLocal, waitNotify } from './fibers.ts';
import { effectCall, inspectCall, storeCall } from './client-calls.ts';
import { DatabaseNode, type SyncStore } from './database-node.ts';
import {
  EV_COORD,
  EV_DELIVER,
  EV_END_FAULT,
  EV_EXPIRY,
  EV_FAULT,
  EV_LIVENESS,
  EV_OP,
  EV_RESTART,
  EV_RESUME,
  EV_SNAPSHOT,
  EV_WAKE,
  Fiber,
  MSG_DB_REP,
  MSG_DB_REQ,
  MSG_INSP_REQ,
  MSG_NOTIFY,
  MSG_PROV_REP,
  MSG_PROV_REQ,
  Node,
  Retired,
  SNAPSHOT_INTERVAL_MS,
  TIMEOUT,
  WAKE_TIMEOUT,
  type Message,
} from './sim-node.ts';

export { EV_COORD, Fiber, Node, type Journal } from './sim-node.ts';

export interface SimHooks {
  /** Starts the next queued operation of an idle node (controller.ts). */
  startNext(sim: Sim, node: Node): void;
  /** A new incarnation's first fiber: reconcile what the journal says, then continue. */
  recover(sim: Sim, node: Node): void;
  /** Runs the recovery procedure after failover/restore (§272–§276). */
  afterRecoveryEpoch(sim: Sim, scopes: ReadonlyArray<string>): void;
}

/** The coordination service of a plan with `coordination` (sim/coordination/service.ts). */
export interface SimCoordination {
  handle(data: unknown): Promise<void>;
  /** Takes a planned operation as a job for the scheduler leader instead of a fixed node. */
  submit(op: OpSpec): void;
  onRetire(node: Node): void;
  onRestart(node: Node): void;
  /** Leader crash, pause or isolation, or a symmetric split of the voters (sim/coordination/faults.ts). */
  applyFault(fault: CoordinationFault): void;
}


export class Sim {
  now = 0;
  readonly queue = new EventQueue();
  readonly history = new HistoryRecorder();
  readonly streams: Streams;
  readonly network: Network;
  readonly nodes = new Map<string, Node>();
  readonly controllers: Node[] = [];
  store!: Store;
  /** The store, when it can answer synchronously (`executeSync`): no await per call. */
  syncStore: SyncStore | null = null;
  /** The node whose request the database is executing: the store's `callerClock` reads its clock. */
  private caller: Node | null = null;
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
  coordination: SimCoordination | null = null;

  constructor(
    readonly plan: Plan,
    readonly policy: ControllerPolicy,
    readonly hooks: SimHooks,
  ) {
    this.streams = new Streams(plan.seed);
    this.network = new Network(plan.faults, plan.seed);
    this.provider = new Provider(plan.seed, this.history, plan.faults.providerTimeoutPct, plan.faults.providerTimeoutAppliedPct);
    this.endMs = plan.horizonMs + plan.livenessBoundMs;
    for (let i = 1; i <= plan.controllers; i++) this.addNode(`c${i}`, true);
    this.addNode('operator', false);
    this.addNode('recovery', false);
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

  /** The store's TimeSource is true virtual time; `callerClock` is the executing caller's clock. */
  readonly storeTime: TimeSource = { now: () => this.now };
  readonly callerClock: TimeSource = { now: () => (this.caller === null ? this.now : this.caller.clock.read(this.now)) };

  setCaller(node: Node | null): void {
    this.caller = node;
  }

  /** The database node: executes store calls, LISTEN/NOTIFY (sim/database-node.ts). */
  private readonly db = new DatabaseNode(this);

  /** The reference model in lockstep with the store (sim/shadow-model.ts); off until a store is attached. */
  shadow = new ShadowModel(false);
  /** The command kinds the store declares (null: every kind of the port). */
  private supported: ReadonlySet<string> | null = null;

  /** Required command kinds the run would have sent and the store does not implement. */
  readonly unsent = new Set<string>();

  supports(kind: Command['kind']): boolean {
    return this.supported === null || this.supported.has(kind);
  }

  /** Answers and errors of the store that the port does not allow (sim/port-contract.ts). */
  readonly contract = new PortContract();

  /** `differential`: compare every outcome with the reference model's (off for a store with semantics of its own). */
  attachStore(store: Store, differential = true): void {
    this.store = store;
    const declared = store.capabilities?.commands;
    this.supported = declared === undefined ? null : new Set(declared);
    this.shadow = new ShadowModel(differential && store.capabilities?.referenceSemantics !== false);
    const maybe = store as Partial<SyncStore>;
    this.syncStore = typeof maybe.executeSync === 'function' ? (store as unknown as SyncStore) : null;
  }

  // ---- fibers (sim/fibers.ts) ----------------------------------------------------------------

  private readonly fibers = new FiberDriver();

  spawn(node: Node, process: string, body: (fiber: Fiber) => Promise<void>, delayMs = 0): Fiber {
    const fiber = new Fiber(node, process, body);
    node.fibers.push(fiber);
    this.queue.push(this.now + delayMs, EV_WAKE, 0, 0, fiber);
    return fiber;
  }

  /** Parks the running fiber until the agenda wakes it with a matching wait id. */
  block(fiber: Fiber): Promise<unknown> {
    return this.fibers.block(fiber);
  }

  /**
   * A waiter sleeps until the database notifies a scope it listens on (LISTEN/NOTIFY: a release,
   * handoff, cancelled wait or expiry), or until the long fallback poll on its local clock — a
   * notification can be lost with its connection or on the network (§87: no busy polling).
   */
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
    return storeCall(this, fiber, command, process, listen);
  }

  /**
   * Calls the provider. A timeout is an unknown outcome: the process is retired (Jepsen). Only a
   * broken policy passes `carryOn`: then the call answers null and the fiber goes on under a new
   * process name, as a client whose retry layer swallowed the timeout would.
   */
  effect(fiber: Fiber, request: EffectRequest, attempt: number, carryOn = false): Promise<boolean | null> {
    return effectCall(this, fiber, request, attempt, carryOn);
  }

  inspect(fiber: Fiber, intentId: string): Promise<boolean> {
    return inspectCall(this, fiber, intentId);
  }

  // ---- incarnations -------------------------------------------------------------------------

  /** Ends the node's current incarnation: every fiber stops, in-flight ops become `info`. */
  retire(node: Node, why: string, downMs = 0): void {
    for (const fiber of node.fibers) {
      if (fiber.dead) continue;
      fiber.dead = true;
      // The fiber that raised the retirement has already closed its own op.
      if (fiber.inFlight !== null) this.history.op(this.now, fiber.inFlight, 'info', this.lastInvokedF(fiber.inFlight), { error: why });
    }
    this.closeOpenOps(node, why);
    node.busy = false;
    node.down = true;
    this.coordination?.onRetire(node);
    this.queue.push(this.now + Math.max(1, downMs), EV_RESTART, 0, 0, node);
  }

  /** Open `wait`/`cancel` ops of the retiring incarnation are closed as unknown. */
  private readonly openOps = new Map<string, { node: Node; f: string }>();
  openOp(node: Node, process: string, f: string, value: unknown): void {
    this.history.op(this.now, process, 'invoke', f, value);
    this.openOps.set(process, { node, f });
  }
  closeOp(process: string, type: 'ok' | 'fail' | 'info', value: unknown): void {
    const open = this.openOps.get(process);
    if (open === undefined) return;
    this.openOps.delete(process);
    this.history.op(this.now, process, type, open.f, value);
  }
  private closeOpenOps(node: Node, why: string): void {
    const mine: string[] = [];
    for (const [process, open] of this.openOps) if (open.node === node && process.startsWith(`${node.proc}:`)) mine.push(process);
    mine.sort();
    for (const process of mine) this.closeOp(process, 'info', { error: why });
  }

  private lastInvokedF(process: string): string {
    for (let i = this.history.events.length - 1; i >= 0; i--) {
      const e = this.history.events[i]!;
      if (e.process === process && e.type === 'invoke') return e.f;
    }
    return 'unknown';
  }

  // ---- the loop -----------------------------------------------------------------------------

  async run(): Promise<void> {
    const queue = this.queue;
    for (;;) {
      const event = queue.pop();
      if (event === undefined) break;
      if (event.time > this.endMs) break;
      if (event.time < this.now) assert.fail('time never goes backwards');
      this.now = event.time;
      switch (event.kind) {
        case EV_WAKE: {
          const fiber = event.data as Fiber;
          if (fiber.dead || fiber.waitId !== event.a) break;
          if (fiber.node.pausedUntil > this.now) {
            queue.push(fiber.node.pausedUntil, EV_WAKE, event.a, event.b, fiber);
            break;
          }
          if (fiber.started && fiber.resume === null) break;
          await this.fibers.step(fiber, event.b === WAKE_TIMEOUT ? TIMEOUT : undefined);
          break;
        }
        case EV_RESUME: {
          const w = event.data as { fiber: Fiber; waitId: number; value: unknown };
          const fiber = w.fiber;
          if (fiber.dead || fiber.waitId !== w.waitId) break;
          if (fiber.node.pausedUntil > this.now) {
            queue.push(fiber.node.pausedUntil, EV_RESUME, 0, 0, w);
            break;
          }
          if (fiber.resume === null) break;
          await this.fibers.step(fiber, w.value);
          break;
        }
        case EV_DELIVER: {
          const pending = this.deliver(event.data as Message);
          if (pending !== null) await pending;
          break;
        }
        case EV_OP:
          this.enqueueOp(event.data as { node: string; op: OpSpec });
          break;
        case EV_FAULT:
          await this.nemesis.apply(event.data as Record<string, unknown> & { f: string });
          break;
        case EV_END_FAULT:
          await this.nemesis.end(event.data as Record<string, unknown> & { f: string });
          break;
        case EV_SNAPSHOT:
          await this.nemesis.takeSnapshot(event.data as (Record<string, unknown> & { f: string }) | null);
          break;
        case EV_RESTART:
          await this.restart(event.data as Node);
          break;
        case EV_LIVENESS:
          await this.nemesis.startLiveness();
          break;
        case EV_COORD:
          await this.coordination?.handle(event.data);
          break;
        case EV_EXPIRY:
          this.db.expiryDue(event.data as string, event.a);
          break;
      }
      if (this.fibers.failure !== null) throw this.fibers.failure;
    }
  }

  private enqueueOp(step: { node: string; op: OpSpec }): void {
    const node = this.nodes.get(step.node);
    if (node === undefined) assert.fail(`plan names a known node: ${step.node}`);
    if (this.coordination !== null) {
      this.coordination.submit(step.op);
      return;
    }
    node.pending.push(step.op);
    if (!node.busy && !node.down) this.hooks.startNext(this, node);
  }

  private async restart(node: Node): Promise<void> {
    this.newIncarnation(node);
    node.down = false;
    node.pausedUntil = 0;
    await this.nemesis.record('restart', { node: node.name, process: node.proc });
    this.coordination?.onRestart(node);
    this.hooks.recover(this, node);
  }

  // ---- messages -----------------------------------------------------------------------------

  /**
   * Delivers one message. The usual case finishes synchronously (null); a message that resumes a
   * fiber, or a store call without `executeSync`, returns the promise the loop must await. Plain
   * functions rather than async ones: each async layer would add microtask hops to every reply.
   */
  private deliver(m: Message): Promise<void> | null {
    if (this.network.isBlocked(m.from, m.to)) {
      this.network.dropped++;
      return null;
    }
    switch (m.type) {
      case MSG_DB_REQ:
        return this.db.execute(m);
      case MSG_DB_REP:
        if (m.conn !== this.dbConn) return null;
        return this.wakeFromMessage(m, m.waitId);
      case MSG_PROV_REQ:
        this.applyAtProvider(m);
        return null;
      case MSG_INSP_REQ:
        this.reply(m, MSG_PROV_REP, this.provider.inspect(m.payload as string));
        return null;
      case MSG_PROV_REP:
        return this.wakeFromMessage(m, m.waitId);
      case MSG_NOTIFY: {
        const fiber = m.fiber;
        if (m.conn !== this.dbConn || fiber.dead) return null;
        if (fiber.notifyWaitId === 0 || fiber.notifyWaitId !== fiber.waitId) {
          fiber.notified = true;
          return null;
        }
        return this.wakeFromMessage(m, fiber.waitId);
      }
    }
    return null;
  }

  private wakeFromMessage(m: Message, waitId: number): Promise<void> | null {
    const fiber = m.fiber;
    if (fiber.dead || fiber.waitId !== waitId || fiber.resume === null) return null;
    // A paused node processes the reply when it resumes; otherwise it is processed now.
    if (fiber.node.pausedUntil > this.now) {
      this.queue.push(fiber.node.pausedUntil, EV_RESUME, 0, 0, { fiber, waitId, value: m.payload });
      return null;
    }
    return this.fibers.step(fiber, m.payload);
  }

  /** Sends the answer to a request back over the network (from the request's receiver). */
  reply(m: Message, type: number, payload: unknown): void {
    const delay = this.network.transit(m.to, m.from, this.faultsOn);
    if (delay < 0) return;
    this.queue.push(this.now + delay, EV_DELIVER, 0, 0, { type, from: m.to, to: m.from, fiber: m.fiber, waitId: m.waitId, payload, conn: this.dbConn, listen: null } satisfies Message);
  }

  private applyAtProvider(m: Message): void {
    const request = m.payload as EffectRequest;
    const reply = this.provider.call(this.now, request, this.faultsOn, (applied) => this.fault('provider-timeout', { intentId: request.intentId, applied }));
    if (reply !== null) this.reply(m, MSG_PROV_REP, reply);
  }

  // ---- faults -------------------------------------------------------------------------------

  fault(f: FaultKind, value: Readonly<Record<string, unknown>>): void {
    this.history.fault(this.now, f, value);
  }

  readonly nemesis: Nemesis = new Nemesis(this);

  /** A fault that lasts (partition, loss window, pause, database crash) ends at `time`. */
  scheduleFaultEnd(time: number, fault: Readonly<Record<string, unknown>>): void {
    this.queue.push(time, EV_END_FAULT, 0, 0, fault);
  }

  /** With real faults, each simulated fault is also applied for real while time stands still. */
  realFaults: RealFaultDriver | null = null;
  readonly realActions: Array<{ f: string; outcome: string }> = [];

  /** Runs a command on the database host itself (setup, recovery): no network, time stands still. */
  async executeDirect<C extends Command>(command: C, process = 'database-host'): Promise<OutcomeOf<C>> {
    const outcome = this.syncStore !== null ? this.syncStore.executeSync(command) : await this.store.execute(command);
    this.shadow.executed(command, this.now, outcome, process, null);
    return outcome;
  }

  /** Capacities are defined once, before any operation starts (a deployment-time setting). */
  async defineCapacities(): Promise<void> {
    for (const { scope, capacity } of this.plan.capacities) {
      const command = { kind: 'DefineCapacity' as const, scope, capacity };
      if (!this.supports(command.kind)) continue;
      this.history.op(this.now, 'setup#1', 'invoke', command.kind, command);
      this.history.op(this.now, 'setup#1', 'ok', command.kind, await this.executeDirect(command));
    }
  }

  /** Puts the plan's steps, the snapshot cadence and the liveness phase on the agenda. */
  schedule(): void {
    const needsImages = this.plan.steps.some((s) => s.kind === 'fault' && (s.fault.f === 'db-failover' || s.fault.f === 'db-restore'));
    if (needsImages && this.realFaults === null) for (let t = 0; t < this.plan.horizonMs; t += SNAPSHOT_INTERVAL_MS) this.queue.push(t, EV_SNAPSHOT, 0, 0, null);
    // With real faults the replica's lag and the backup's age are made real ahead of the fault:
    // the replication link is cut `lagMs` before the failover, the backup taken `snapshotAgeMs` before the restore.
    if (this.realFaults !== null) {
      for (const step of this.plan.steps) {
        if (step.kind !== 'fault') continue;
        const ageMs = step.fault.f === 'db-failover' ? step.fault.lagMs : step.fault.f === 'db-restore' ? step.fault.snapshotAgeMs : null;
        if (ageMs !== null) this.queue.push(Math.max(0, step.at - ageMs), EV_SNAPSHOT, 0, 0, step.fault);
      }
    }
    for (const step of this.plan.steps) {
      if (step.kind === 'op') this.queue.push(step.at, EV_OP, 0, 0, { node: step.node, op: step.op });
      else this.queue.push(step.at, EV_FAULT, 0, 0, step.fault);
    }
    this.queue.push(this.plan.horizonMs, EV_LIVENESS, 0, 0, null);
  }
}

