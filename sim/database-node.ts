// The database node of the simulation: it executes each store request on arrival (synchronously
// when the store allows it), checks the answer against the port, tells the shadow model, records
// ground truth for accepted writes, and emulates PostgreSQL's LISTEN/NOTIFY: a session that asked
// to listen on a scope gets one notification when the scope may have room (a release, a handoff,
// a cancelled wait, an expiry), unless its connection died in between.

import type { Command } from '../model/commands.ts';
import { isOutcomeOf } from '../model/outcome-kinds.ts';
import type { Outcome, OutcomeOf } from '../model/outcomes.ts';
import { OutcomeUnknownError, StoreLostError, StoreUnavailableError, type Store, type SyncStore, type TimeSource } from '../adapters/port.ts';
import { chooserOf, CLOCK_SESSION, insideFunctions, type InterleavedStores, type Interleaving } from '../adapters/interleaving.ts';
import { chooserFor, STEPS_PER_CALL, STEPS_PER_CALL_INSIDE_FUNCTIONS } from './interleave-strategy.ts';
import type { BatchEntry } from './batch-order.ts';
import type { Streams } from './prng.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Network } from './network.ts';
import { contractBreach, fieldBreach, kindBreach, type PortContract } from './port-contract.ts';
import type { ShadowModel } from './shadow-model.ts';
import { EV_DB_FLUSH, EV_DELIVER, EV_EXPIRY, FREES_SCOPE, GRANTS, MSG_NOTIFY, OUTCOME_UNKNOWN, UNAVAILABLE, type DbAnswer, type DbRequest, type Fiber, type Node, type SimQueue } from './sim-node.ts';


/** What the database node needs of the simulation around it. */
export interface DatabaseHost {
  readonly now: number;
  readonly dbDown: boolean;
  /** Connection generation: a request or session from before a crash or failover is gone. */
  readonly dbConn: number;
  readonly faultsOn: boolean;
  readonly store: Store;
  readonly syncStore: SyncStore | null;
  readonly queue: SimQueue;
  readonly network: Network;
  readonly history: HistoryRecorder;
  readonly contract: PortContract;
  readonly shadow: ShadowModel;
  readonly streams: Streams;
  reply(m: DbRequest, answer: DbAnswer): void;
}

/** Controlled interleaving (adapters/interleaving.ts): the session stores and how their statements go. */
export interface Interleaved {
  readonly stores: InterleavedStores;
  readonly interleaving: Interleaving;
}

export class DatabaseNode {
  constructor(private readonly host: DatabaseHost) {}

  /** Set under controlled interleaving: calls run in batches, a session per node. */
  interleaved: Interleaved | null = null;
  /** The node whose request is executing: the store's `callerClock` reads its clock. */
  private caller: Node | null = null;
  readonly callerClock: TimeSource = { now: () => (this.caller === null ? this.host.now : this.caller.clock.read(this.host.now)) };

  /** Runs a command on the database host itself (setup, recovery): no network, time stands still. */
  async executeDirect<C extends Command>(command: C, process: string): Promise<OutcomeOf<C>> {
    // The procedure recorded this very command as its invoke just before: it runs now, at the host.
    const invoke = this.host.history.events.at(-1);
    if (invoke?.type === 'invoke' && invoke.value === command) this.host.history.ranAt(invoke.index, this.host.now);
    const sync = this.host.syncStore;
    const outcome = sync !== null ? sync.executeSync(command) : await this.host.store.execute(command);
    this.host.shadow.executed(command, this.host.now, outcome, process, null);
    return outcome;
  }

  /** Executes a request at the database: synchronously when the store allows it (null), else the promise of it. */
  execute(m: DbRequest): Promise<void> | null {
    if (this.host.dbDown || m.conn !== this.host.dbConn) return null;
    const command = m.payload;
    if (this.interleaved !== null) {
      this.enqueue(m, this.interleaved.interleaving.windowMs);
      return null;
    }
    const sync = this.host.syncStore;
    this.ran(m, this.host.now);
    if (sync === null) return this.executeAtDbAsync(m, command);
    this.caller = m.fiber.node;
    let outcome: unknown;
    try {
      outcome = sync.executeSync(command);
    } catch (error) {
      this.failedAtDb(m, command, error);
      return null;
    } finally {
      this.caller = null;
    }
    this.committedAtDb(m, command, outcome);
    return null;
  }

  private async executeAtDbAsync(m: DbRequest, command: Command): Promise<void> {
    this.caller = m.fiber.node;
    let outcome: unknown;
    try {
      outcome = await this.host.store.execute(command, { process: m.incarnation, node: m.fiber.node.name });
    } catch (error) {
      this.failedAtDb(m, command, error);
      return;
    } finally {
      this.caller = null;
    }
    this.committedAtDb(m, command, outcome);
  }

  // ---- controlled interleaving (adapters/interleaving.ts) -------------------------------------

  /** Calls waiting for the next batch, in arrival order, with the time each arrived. */
  private waiting: Array<{ readonly m: DbRequest; readonly at: number }> = [];
  private flushPending = false;

  private enqueue(m: DbRequest, windowMs: number): void {
    this.waiting.push({ m, at: this.host.now });
    if (this.flushPending) return;
    this.flushPending = true;
    this.host.queue.push(this.host.now + windowMs, EV_DB_FLUSH, 0, 0, null);
  }

  /**
   * Runs the calls that arrived in the window at once, one per session (a session's second call
   * goes to the next batch, at the same instant), statement by statement in the order the seeded
   * chooser decides. The schedule is recorded in the history, so it is part of the trace hash.
   * Where the store allows it, store time passes during the batch, from the first call's arrival
   * to now, when the chooser says (adapters/interleaving.ts `passingTime`).
   */
  async flush(): Promise<void> {
    this.flushPending = false;
    const batch: DbRequest[] = [];
    const arrivals: number[] = [];
    const later: Array<{ readonly m: DbRequest; readonly at: number }> = [];
    const sessions = new Set<string>();
    for (const waiting of this.waiting) {
      const m = waiting.m;
      // A request that arrived before a database crash or failover is lost with its connection.
      if (this.host.dbDown || m.conn !== this.host.dbConn) continue;
      // A session's second call goes to the next batch, whose store time starts where this one ends.
      if (sessions.has(m.fiber.node.name)) later.push({ m, at: this.host.now });
      else {
        sessions.add(m.fiber.node.name);
        batch.push(m);
        arrivals.push(waiting.at);
      }
    }
    this.waiting = later;
    if (later.length > 0) {
      this.flushPending = true;
      this.host.queue.push(this.host.now, EV_DB_FLUSH, 0, 0, null);
    }
    if (batch.length === 0) return;
    const { stores, interleaving } = this.interleaved!;
    const calls = batch.map((m, i) => ({ session: m.fiber.node.name, command: m.payload, arrivedAt: arrivals[i]! }));
    const choosing = stores.passingTime ? [...sessions, CLOCK_SESSION] : [...sessions];
    const chooser = chooserOf(interleaving.strategy);
    const steps = insideFunctions(interleaving.strategy) ? STEPS_PER_CALL_INSIDE_FUNCTIONS : STEPS_PER_CALL;
    const choose = chooser === null ? null : chooserFor(chooser, this.host.streams.get('interleave'), choosing, steps);
    const result = await stores.runBatch(calls, choose, this.host.now);
    if (result.instrumented !== undefined) this.host.history.truth(this.host.now, 'database', 'instrumented', result.instrumented);
    const finished = result.settled.map(({ call }) => calls[call]!.session);
    this.host.history.truth(this.host.now, 'database', 'interleaving', { calls: [...sessions], schedule: [...result.schedule], finished });
    const clean = result.settled.every(({ call, result: r }) => r.status === 'fulfilled' && contractBreach(calls[call]!.command, r.value) === null);
    if (clean) {
      const entries: BatchEntry[] = [];
      for (const { call, result: r, storeTimes } of result.settled) {
        if (r.status === 'fulfilled') entries.push({ command: calls[call]!.command, actual: r.value, process: batch[call]!.fiber.process, storeTimes });
      }
      this.host.shadow.executedBatch(entries, this.host.now);
    } else {
      // Which order the batch ran in cannot be told without every outcome.
      this.host.shadow.stop('a call of a concurrent batch has no outcome the port allows');
    }
    for (const { call, result: r, storeTimes } of result.settled) {
      const m = batch[call]!;
      if (storeTimes.length > 0) this.ran(m, Math.min(...storeTimes), Math.max(...storeTimes));
      if (r.status === 'fulfilled') this.committedAtDb(m, calls[call]!.command, r.value, false);
      else this.failedAtDb(m, calls[call]!.command, r.reason);
    }
  }

  /** Notes the store time a request ran at, from `fromMs` to `toMs` (later only in a batch where store time passed). */
  private ran(m: DbRequest, fromMs: number, toMs = fromMs): void {
    this.host.history.ranAt(m.invoke, fromMs, toMs);
  }

  /** `shadowed`: step the shadow model with this outcome (false when the batch was compared whole). */
  private committedAtDb(m: DbRequest, command: Command, answer: unknown, shadowed = true): void {
    // The store's answer is checked against the port (port-contract.ts) before anything reads it.
    if (!isOutcomeOf(command, answer)) {
      this.brokeContract(m, command, kindBreach(command, answer));
      return;
    }
    const breach = fieldBreach(command, answer, this.host.contract.shapes);
    if (breach !== null) {
      this.brokeContract(m, command, breach);
      return;
    }
    const outcome = answer;
    if (shadowed) this.host.shadow.executed(command, this.host.now, outcome, m.fiber.process, null);
    if (command.kind === 'Mutate' && outcome.kind === 'Accepted') {
      this.host.history.truth(this.host.now, 'resource', 'mutation-accepted', { scope: command.scope, aggregate: command.aggregate, token: outcome.token, holder: command.holder, version: outcome.version });
    }
    this.host.reply(m, outcome);
    this.afterCommit(m, command, outcome);
  }

  /** Not an answer the port allows: a finding about the store; the caller cannot know what happened. */
  private brokeContract(m: DbRequest, command: Command, what: string): void {
    this.host.contract.breach(command, m.fiber.process, this.host.now, what);
    this.host.shadow.lost(command, 'the store broke the port contract');
    this.host.reply(m, OUTCOME_UNKNOWN);
  }

  /**
   * An infrastructure failure is answered as unknown or unavailable. Anything else the store
   * throws is a bug of the store: a port-contract finding, and an unknown outcome for the caller.
   */
  private failedAtDb(m: DbRequest, command: Command, error: unknown): void {
    // The store can no longer be called (its process ended, a call never settled): the run
    // cannot go on, and ends undecided.
    if (error instanceof StoreLostError) throw error;
    if (error instanceof StoreUnavailableError) {
      this.host.reply(m, UNAVAILABLE);
      return;
    }
    if (!(error instanceof OutcomeUnknownError)) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.host.contract.breach(command, m.fiber.process, this.host.now, `threw ${message.split('\n')[0]}`);
    }
    this.host.shadow.lost(command, error instanceof Error ? error.message : String(error));
    this.host.reply(m, OUTCOME_UNKNOWN);
  }

  // ---- notifications (LISTEN/NOTIFY) ---------------------------------------------------------

  /** Sessions listening per scope channel (with their connection generation), in the order they started. */
  private readonly listeners = new Map<string, Map<Fiber, number>>();
  /** The latest known expiry of each scope's lease: its listeners are notified when it passes. */
  private readonly leaseExpiry = new Map<string, number>();

  /** What a committed command means for the scope channels: listen, arm an expiry, notify. */
  private afterCommit(m: DbRequest, command: Command, outcome: Outcome): void {
    if (m.listen !== null && !GRANTS.has(outcome.kind)) {
      for (const scope of m.listen) {
        let sessions = this.listeners.get(scope);
        if (sessions === undefined) {
          sessions = new Map();
          this.listeners.set(scope, sessions);
        }
        sessions.set(m.fiber, m.conn);
      }
    }
    if (FREES_SCOPE.has(outcome.kind) && 'scope' in command && typeof command.scope === 'string') {
      this.leaseExpiry.delete(command.scope);
      this.notify(command.scope);
    }
    switch (outcome.kind) {
      case 'Acquired':
      case 'Renewed':
      case 'HandedOff':
        this.armExpiry(outcome.lease.scope, outcome.lease.expiresAt);
        break;
      case 'AcquiredAll':
        for (const lease of outcome.leases) this.armExpiry(lease.scope, lease.expiresAt);
        break;
      case 'Busy':
        // Only Acquire's Busy says when the lease in the way expires.
        if (command.kind === 'Acquire' && 'expiresAt' in outcome) this.armExpiry(command.scope, outcome.expiresAt);
        break;
    }
  }

  private armExpiry(scope: string, at: number): void {
    if (this.leaseExpiry.get(scope) === at) return;
    this.leaseExpiry.set(scope, at);
    // Where store time passed during a batch, a lease the batch saw may have expired by its end:
    // its listeners are told at once.
    this.host.queue.push(Math.max(at, this.host.now), EV_EXPIRY, at, 0, scope);
  }

  expiryDue(scope: string, at: number): void {
    if (this.leaseExpiry.get(scope) !== at) return;
    this.leaseExpiry.delete(scope);
    this.notify(scope);
  }

  /** NOTIFY: every session listening on the scope gets one message; listening ends (one-shot). */
  private notify(scope: string): void {
    const sessions = this.listeners.get(scope);
    if (sessions === undefined || this.host.dbDown) return;
    this.listeners.delete(scope);
    for (const [fiber, conn] of sessions) {
      // A session from before a crash or failover is gone, and its LISTEN with it.
      if (fiber.dead || conn !== this.host.dbConn) continue;
      const delay = this.host.network.transit('db', fiber.node.name, this.host.faultsOn);
      if (delay < 0) continue;
      this.host.queue.push(this.host.now + delay, EV_DELIVER, 0, 0, { type: MSG_NOTIFY, from: 'db', to: fiber.node.name, fiber, waitId: 0, payload: scope, conn: this.host.dbConn, listen: null });
    }
  }
}
