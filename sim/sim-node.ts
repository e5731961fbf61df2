// The pieces the engine is made of, apart from the engine itself: event and message codes, the
// messages the simulated network carries (a union of kinds, each with its payload typed, so that a
// switch on a message's kind narrows it), a controller machine (Node) and its fibers, and the
// control-flow signal that stops a retired process's protocol code (sim/engine.ts drives them).

import { LocalClock } from './clock.ts';
import type { CoordinationFault } from './coordination/faults.ts';
import type { CoordinationPicture } from '../model/cluster-doctor.ts';
import type { Command } from '../model/commands.ts';
import type { Outcome } from '../model/outcomes.ts';
import type { EventQueue } from './event-queue.ts';
import type { OpSpec, ScriptedFault } from './plan.ts';
import type { EffectReply, EffectRequest } from './provider.ts';

export const EV_OP = 1;
export const EV_DELIVER = 2;
export const EV_WAKE = 3;
export const EV_FAULT = 4;
export const EV_SNAPSHOT = 5;
export const EV_RESTART = 6;
export const EV_END_FAULT = 7;
export const EV_LIVENESS = 8;
/** A coordination timer (sim/coordination/service.ts); only plans with `coordination` schedule it. */
export const EV_COORD = 9;
export const EV_EXPIRY = 11;
/** A wake that carries a value (a reply held while its node was paused); EV_WAKE carries none. */
export const EV_RESUME = 12;
/** Controlled interleaving: the database runs the calls that arrived in the window as one batch. */
export const EV_DB_FLUSH = 13;

/** EV_WAKE's `b`: the fiber wakes because its call timed out. */
export const WAKE_TIMEOUT = 1;

/** A reply that reached a paused node, held on the agenda (EV_RESUME) until the node resumes. */
export interface HeldReply {
  readonly fiber: Fiber;
  readonly waitId: number;
  readonly value: Reply;
}

/** A coordination timer: the rest of its shape is the coordination layer's (sim/coordination/service.ts). */
export interface CoordinationTimer {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/**
 * What each kind of event carries. `a` and `b` are 0 except for EV_WAKE (`a`: the wait id it
 * wakes, `b`: WAKE_TIMEOUT when a call timed out) and EV_EXPIRY (`a`: the expiry time).
 */
export interface SimEvents {
  readonly [EV_OP]: { readonly node: string; readonly op: OpSpec };
  readonly [EV_DELIVER]: Message;
  readonly [EV_WAKE]: Fiber;
  readonly [EV_FAULT]: ScriptedFault;
  /** The fault whose image is prepared ahead of time (real faults), or null for the simulated cadence. */
  readonly [EV_SNAPSHOT]: ScriptedFault | null;
  readonly [EV_RESTART]: Node;
  readonly [EV_END_FAULT]: ScriptedFault;
  readonly [EV_LIVENESS]: null;
  readonly [EV_COORD]: CoordinationTimer;
  /** The scope whose lease expires. */
  readonly [EV_EXPIRY]: string;
  readonly [EV_RESUME]: HeldReply;
  readonly [EV_DB_FLUSH]: null;
}

/** The simulator's agenda. */
export type SimQueue = EventQueue<SimEvents>;

/** How often the replica/backup image is taken when a plan has failover or restore. */
export const SNAPSHOT_INTERVAL_MS = 100;

/** Message kinds, the `type` of each kind of Message below. */
export const MSG_DB_REQ = 1;
export const MSG_DB_REP = 2;
export const MSG_PROV_REQ = 3;
export const MSG_PROV_REP = 4;
export const MSG_INSP_REQ = 5;
export const MSG_NOTIFY = 6;

/** The value a fiber is woken with when its call timed out. */
export const TIMEOUT: unique symbol = Symbol('timeout');
/** A store call's answer when the store was unavailable: a definite failure. */
export const UNAVAILABLE: unique symbol = Symbol('unavailable');
/** A store call's answer when its outcome cannot be known (the store failed mid-call, or broke the port contract). */
export const OUTCOME_UNKNOWN: unique symbol = Symbol('outcome-unknown');

/** Outcomes after which a scope may have room for a waiter: its listeners are notified. */
export const FREES_SCOPE: ReadonlySet<string> = new Set(['Released', 'ForceReleased', 'HandedOff', 'WaitCancelled', 'PermitReleased', 'Reconciled']);
/** Outcomes that grant what a listener waits for: no need to keep listening. */
export const GRANTS: ReadonlySet<string> = new Set(['Acquired', 'AcquiredAll', 'Granted']);

/**
 * Thrown inside protocol code when its process was retired (crash, or an unknown outcome). It is
 * control flow that the fiber driver catches, never an error a person reads: it captures no stack
 * trace, which would cost more than the rest of a retirement.
 */
export class Retired extends Error {
  constructor(readonly process: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`process ${process} retired`);
    Error.stackTraceLimit = limit;
    this.name = 'Retired';
  }
}


/**
 * What every message carries: `payload` is what its kind says. Every kind has these fields in
 * this order, and names its payload `payload`, so that the router's reads see few object shapes.
 */
interface Envelope<T extends number, P> {
  readonly type: T;
  readonly from: string;
  readonly to: string;
  /** The fiber whose call this is: a reply wakes it, a notification goes to its session. */
  readonly fiber: Fiber;
  readonly waitId: number;
  readonly payload: P;
  /** Database connection generation for db replies: a reply from before a crash or failover is lost. */
  readonly conn: number;
  /** A db request that also LISTENs on these scope channels in the same session (null on every other kind). */
  readonly listen: ReadonlyArray<string> | null;
}

/** A store call on its way to the database node. */
export interface DbRequest extends Envelope<typeof MSG_DB_REQ, Command> {
  /** The controller incarnation (`c1#2`) whose fiber sent it, as it was when sent. */
  readonly incarnation: string;
  /** The history index of its invoke: the database notes the store time it ran at there. */
  readonly invoke: number;
}
/** How a store call ended at the database: the store's outcome, or one of the two failures. */
export type DbAnswer = Outcome | typeof UNAVAILABLE | typeof OUTCOME_UNKNOWN;
export type DbReply = Envelope<typeof MSG_DB_REP, DbAnswer>;
/** An external effect on its way to the provider. */
export type ProviderRequest = Envelope<typeof MSG_PROV_REQ, EffectRequest>;
/** A question to the provider whether the effect of an intent (the payload) was applied. */
export type InspectRequest = Envelope<typeof MSG_INSP_REQ, string>;
/** The provider's answer to an effect or an inspection. */
export type ProviderReply = Envelope<typeof MSG_PROV_REP, EffectReply>;
/** NOTIFY on the scope channel of the payload, to a session that listens on it. */
export type Notify = Envelope<typeof MSG_NOTIFY, string>;

/** What the simulated network carries; the router switches on `type`, which narrows the payload. */
export type Message = DbRequest | DbReply | ProviderRequest | InspectRequest | ProviderReply | Notify;
/** The messages that wake the fiber they name. */
export type Reply = DbReply | ProviderReply | Notify;
/** What a parked fiber is woken with: the reply it waited for, TIMEOUT, or nothing (a sleep is over). */
export type Wake = Reply | typeof TIMEOUT | undefined;

export interface Journal {
  op: OpSpec;
  attempt: number;
  intentId: string | null;
  /** The effect may have been applied: the next incarnation must inspect before anything else. */
  effectInFlight: boolean;
}

/** A controller machine; its process restarts as new incarnations (seed 001 §12–§13). */
export class Node {
  incarnation = 0;
  proc = '';
  readonly clock = new LocalClock();
  pausedUntil = 0;
  down = false;
  busy = false;
  readonly pending: OpSpec[] = [];
  /** Durable job journal: survives crashes, read by the next incarnation (§287). */
  journal: Journal | null = null;
  fibers: Fiber[] = [];
  constructor(readonly name: string) {}
}

export class Fiber {
  resume: ((value: Wake) => void) | null = null;
  waitId = 0;
  dead = false;
  started = false;
  /** The op this fiber has in flight, so a crash can close it as `info`. */
  inFlight: string | null = null;
  /** The wait id of the notification wait the fiber is parked in (0: not waiting for one). */
  notifyWaitId = 0;
  /** A notification arrived while the fiber was not waiting for one: its next wait returns at once. */
  notified = false;
  constructor(
    readonly node: Node,
    /** The history process; it changes only when a broken policy carries on after an `info`. */
    public process: string,
    readonly body: (fiber: Fiber) => Promise<void>,
  ) {}
}

/** The coordination service of a plan with `coordination` (sim/coordination/service.ts). */
export interface SimCoordination {
  handle(data: CoordinationTimer): Promise<void>;
  /** Takes a planned operation as a job for the scheduler leader, through the API daemon on `node` (sim/coordination/jobs.ts). */
  submit(op: OpSpec, node: Node): void;
  /** The run ended at `endMs`: every job not finished by then is recorded as such. */
  finish(endMs: number): void;
  onRetire(node: Node): void;
  onRestart(node: Node): void;
  /** Leader crash, pause or isolation, or a symmetric split of the voters (sim/coordination/faults.ts). */
  applyFault(fault: CoordinationFault): void;
  /** The committed role assignments and voters now, for the cluster doctor (model/cluster-doctor.ts). */
  picture(): CoordinationPicture;
}
