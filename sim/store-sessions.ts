// Tells a store with `lifecycle` (adapters/port.ts) what happens to the processes and their
// connections: crashes and retirements, new incarnations, pauses, a node cut off from the database
// and back, the database server stopping (a crash, or a failover or restore, which break every
// connection). The events are queued where they happen and delivered
// before the simulator's next event, at the same instant of virtual time, in the order they
// happened, so a run stays deterministic. A lease the store says ended with its session is
// recorded in the history as `session-ended` ground truth (model/history.ts).
//
// A store without `lifecycle` is told nothing, and its history is the same as before.

import type { LifecycleEvent, SessionLeaseEnd, Store } from '../adapters/port.ts';
import type { FaultKind } from '../model/history.ts';
import type { HistoryRecorder } from './history-recorder.ts';

export interface SessionsHost {
  readonly now: number;
  /** Unset until the store is attached (faults recorded before that are nothing to it). */
  readonly store: Store | undefined;
  readonly history: HistoryRecorder;
  /** The controllers, whose current process (`c1#2`) a node's event names. */
  readonly controllers: ReadonlyArray<{ readonly name: string; readonly proc: string }>;
}

const DATABASE = 'db';

export class StoreSessions {
  private readonly queued: LifecycleEvent[] = [];
  /** Partitions now cutting each node off from the database (overlapping partitions count). */
  private readonly cutOff = new Map<string, number>();

  constructor(private readonly host: SessionsHost) {}

  private get listening(): boolean {
    return this.host.store?.lifecycle !== undefined;
  }

  /** On attaching the store: whether its leases are session-bound (then the history says so first). */
  attached(): boolean {
    const store = this.host.store;
    if (store?.capabilities?.leaseBound !== 'session') return false;
    // Its leases end only when it says so: a store that is never told of sessions cannot.
    if (store.lifecycle === undefined) throw new Error(`store ${store.name} declares session-bound leases (capabilities.leaseBound 'session') but has no lifecycle(): it cannot say when a session, and its leases, end`);
    this.host.history.truth(this.host.now, 'database', 'session-leases', {});
    return true;
  }

  get pending(): boolean {
    return this.queued.length > 0;
  }

  /** A process ended: crashed, or retired after an unknown outcome. Its sessions are gone. */
  ended(process: string, node: string): void {
    if (this.listening) this.queued.push({ kind: 'crash', process, node });
  }

  /** What a fault record of the nemesis means for the processes' sessions. */
  faultRecorded(f: FaultKind, value: Readonly<Record<string, unknown>>): void {
    if (!this.listening) return;
    const node = typeof value.node === 'string' ? value.node : null;
    const process = typeof value.process === 'string' ? value.process : null;
    switch (f) {
      case 'restart':
        if (node === null || process === null) return;
        this.queued.push({ kind: f, process, node });
        // A partition that began while the node was down cuts the new incarnation off too.
        if ((this.cutOff.get(node) ?? 0) > 0) this.queued.push({ kind: 'cut-off', process, node });
        return;
      case 'pause':
      case 'resume':
        if (node !== null && process !== null) this.queued.push({ kind: f, process, node });
        return;
      case 'partition':
        this.link(value, +1);
        return;
      case 'heal':
        this.link(value, -1);
        return;
      case 'liveness-phase':
        // Every partition heals at once.
        for (const cut of [...this.cutOff.keys()]) this.reconnect(cut);
        return;
      case 'db-crash':
        this.queued.push({ kind: 'database-crash', process: null, node: null });
        return;
      case 'db-failover':
      case 'db-restore':
        // The durable state was replaced and every connection broke (unless the fault was skipped).
        if (value.skipped !== true) this.queued.push({ kind: 'database-crash', process: null, node: null });
        return;
      default:
        return;
    }
  }

  private link(value: Readonly<Record<string, unknown>>, change: 1 | -1): void {
    const { from, to } = value;
    const node = from === DATABASE ? to : to === DATABASE ? from : null;
    if (typeof node !== 'string' || this.processOf(node) === undefined) return;
    const before = this.cutOff.get(node) ?? 0;
    if (change === 1) {
      this.cutOff.set(node, before + 1);
      if (before === 0) this.queued.push({ kind: 'cut-off', process: this.processOf(node)!, node });
    } else if (before === 1) {
      this.reconnect(node);
    } else if (before > 1) {
      this.cutOff.set(node, before - 1);
    }
  }

  private reconnect(node: string): void {
    this.cutOff.delete(node);
    this.queued.push({ kind: 'reconnect', process: this.processOf(node)!, node });
  }

  private processOf(node: string): string | undefined {
    return this.host.controllers.find((c) => c.name === node)?.proc;
  }

  /** Delivers the queued events in order; records each lease the store says ended with a session. */
  async flush(): Promise<void> {
    const store = this.host.store;
    const lifecycle = store?.lifecycle;
    while (this.queued.length > 0) {
      const event = this.queued.shift()!;
      if (lifecycle === undefined) continue;
      const answer = await lifecycle.call(store, event);
      for (const end of endsOf(answer)) {
        this.host.history.truth(this.host.now, 'database', 'session-ended', { scope: end.scope, holder: end.holder, token: end.token, cause: event.kind, process: event.process });
      }
    }
  }
}

/** The ended leases of a lifecycle answer; a malformed answer is the store's bug, said in one line. */
function endsOf(answer: unknown): ReadonlyArray<SessionLeaseEnd> {
  if (answer === undefined || answer === null) return [];
  const ended = (answer as { ended?: unknown }).ended;
  if (ended === undefined) return [];
  const valid = (end: unknown): end is SessionLeaseEnd => {
    const e = end as Partial<SessionLeaseEnd> | null;
    return e !== null && typeof e === 'object' && typeof e.scope === 'string' && typeof e.holder === 'string' && Number.isSafeInteger(e.token);
  };
  if (!Array.isArray(ended) || !ended.every(valid)) throw new Error(`the store's lifecycle answer is not { ended: [{ scope, holder, token }] }: ${JSON.stringify(answer).slice(0, 200)}`);
  return ended;
}
