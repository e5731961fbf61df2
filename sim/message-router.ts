// The simulated network's deliveries: a message that arrives (and is not cut off by a partition)
// is a request executed at the database node or the provider, a reply that resumes the fiber
// waiting for it (held until a paused node resumes), or a notification for a listening session.

import type { FaultKind } from '../model/history.ts';
import type { DatabaseNode } from './database-node.ts';
import type { FiberDriver } from './fibers.ts';
import type { Network } from './network.ts';
import type { EffectReply, Provider } from './provider.ts';
import { EV_DELIVER, EV_RESUME, MSG_DB_REP, MSG_DB_REQ, MSG_INSP_REQ, MSG_NOTIFY, MSG_PROV_REP, MSG_PROV_REQ, type DbAnswer, type DbRequest, type InspectRequest, type Message, type ProviderRequest, type Reply, type SimQueue } from './sim-node.ts';

/** What the router needs of the simulation. */
export interface RouterHost {
  readonly now: number;
  readonly dbConn: number;
  readonly faultsOn: boolean;
  readonly queue: SimQueue;
  readonly network: Network;
  readonly provider: Provider;
  fault(f: FaultKind, value: Readonly<Record<string, unknown>>): void;
}

export class MessageRouter {
  constructor(
    private readonly host: RouterHost,
    private readonly db: DatabaseNode,
    private readonly fibers: FiberDriver,
  ) {}

  /**
   * Delivers one message. The usual case finishes synchronously (null); a message that resumes a
   * fiber, or a store call without `executeSync`, returns the promise the loop must await. Plain
   * functions rather than async ones: each async layer would add microtask hops to every reply.
   */
  deliver(m: Message): Promise<void> | null {
    if (this.host.network.isBlocked(m.from, m.to)) {
      this.host.network.dropped++;
      return null;
    }
    switch (m.type) {
      case MSG_DB_REQ:
        return this.db.execute(m);
      case MSG_DB_REP:
        if (m.conn !== this.host.dbConn) return null;
        return this.wakeFromMessage(m, m.waitId);
      case MSG_PROV_REQ:
        this.applyAtProvider(m);
        return null;
      case MSG_INSP_REQ:
        this.replyFromProvider(m, this.host.provider.inspect(m.payload));
        return null;
      case MSG_PROV_REP:
        return this.wakeFromMessage(m, m.waitId);
      case MSG_NOTIFY: {
        const fiber = m.fiber;
        if (m.conn !== this.host.dbConn || fiber.dead) return null;
        if (fiber.notifyWaitId === 0 || fiber.notifyWaitId !== fiber.waitId) {
          fiber.notified = true;
          return null;
        }
        return this.wakeFromMessage(m, fiber.waitId);
      }
    }
    return null;
  }

  /** The reply message itself wakes the fiber: its caller narrows it by its `type`. */
  private wakeFromMessage(m: Reply, waitId: number): Promise<void> | null {
    const fiber = m.fiber;
    if (fiber.dead || fiber.waitId !== waitId || fiber.resume === null) return null;
    // A paused node processes the reply when it resumes; otherwise it is processed now.
    if (fiber.node.pausedUntil > this.host.now) {
      this.host.queue.push(fiber.node.pausedUntil, EV_RESUME, 0, 0, { fiber, waitId, value: m });
      return null;
    }
    return this.fibers.step(fiber, m);
  }

  /** Sends the database's answer to a store call back over the network. */
  replyFromDb(m: DbRequest, answer: DbAnswer): void {
    const delay = this.host.network.transit(m.to, m.from, this.host.faultsOn);
    if (delay < 0) return;
    this.host.queue.push(this.host.now + delay, EV_DELIVER, 0, 0, { type: MSG_DB_REP, from: m.to, to: m.from, fiber: m.fiber, waitId: m.waitId, payload: answer, conn: this.host.dbConn, listen: null });
  }

  /** Sends the provider's answer to an effect or an inspection back over the network. */
  private replyFromProvider(m: ProviderRequest | InspectRequest, reply: EffectReply): void {
    const delay = this.host.network.transit(m.to, m.from, this.host.faultsOn);
    if (delay < 0) return;
    this.host.queue.push(this.host.now + delay, EV_DELIVER, 0, 0, { type: MSG_PROV_REP, from: m.to, to: m.from, fiber: m.fiber, waitId: m.waitId, payload: reply, conn: this.host.dbConn, listen: null });
  }

  private applyAtProvider(m: ProviderRequest): void {
    const request = m.payload;
    const reply = this.host.provider.call(this.host.now, request, this.host.faultsOn, (applied) => this.host.fault('provider-timeout', { intentId: request.intentId, applied }));
    if (reply !== null) this.replyFromProvider(m, reply);
  }
}
