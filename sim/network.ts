// The network between nodes: directed partitions (both ways or one-way), random loss, delay and
// hold. A message dropped here is simply never delivered; the sender learns nothing (§160).
//
// Every message draws its fate (loss, delay, hold) from its own point of the seed's space: a hash
// of the link and the message's sequence number on that link. Messages on other links, and how
// many draws earlier messages took, do not shift it, so a shrinker can drop an unrelated plan step
// and every other exchange keeps its timing.

import { strict as assert } from 'node:assert';
import type { FaultOptions } from '../faults/knobs.ts';
import { hashString, mix32, unitOf } from './prng.ts';

/** Draw slots of one message: each decision reads its own slot. */
const SLOT_LOSS = 1;
const SLOT_DELAY = 2;
const SLOT_HOLD = 3;
const SLOT_HOLD_MS = 4;

interface Link {
  /** The link's hash, from the run's seed and the link's name. */
  readonly base: number;
  /** Messages sent on the link so far. */
  sent: number;
}

export class Network {
  /** Directed blocked links `from>to`, with the number of partitions that block each. */
  private readonly blocked = new Map<string, number>();
  /** Links by sender, then receiver (no key string is built per message). */
  private readonly links = new Map<string, Map<string, Link>>();
  /** Extra loss (percent) from scripted message-loss windows. */
  extraLossPct = 0;
  dropped = 0;

  constructor(
    private readonly options: FaultOptions,
    private readonly seed: number,
  ) {
    assert.ok(Number.isSafeInteger(seed), 'the network is seeded by the run seed');
  }

  block(from: string, to: string): void {
    const key = `${from}>${to}`;
    this.blocked.set(key, (this.blocked.get(key) ?? 0) + 1);
  }

  unblock(from: string, to: string): void {
    const key = `${from}>${to}`;
    const n = (this.blocked.get(key) ?? 0) - 1;
    if (n <= 0) this.blocked.delete(key);
    else this.blocked.set(key, n);
  }

  isBlocked(from: string, to: string): boolean {
    return this.blocked.size > 0 && this.blocked.has(`${from}>${to}`);
  }

  healAll(): void {
    this.blocked.clear();
    this.extraLossPct = 0;
  }

  private link(from: string, to: string): Link {
    let outgoing = this.links.get(from);
    if (outgoing === undefined) {
      outgoing = new Map();
      this.links.set(from, outgoing);
    }
    let link = outgoing.get(to);
    if (link === undefined) {
      link = { base: hashString(`${this.seed}/network/${from}>${to}`), sent: 0 };
      outgoing.set(to, link);
    }
    return link;
  }

  /** The delay of a message about to be sent, or -1 when it is lost or the link is cut. */
  transit(from: string, to: string, faultsOn: boolean): number {
    const link = this.link(from, to);
    // The sequence number is taken even by a message the partition drops, so a partition's
    // length does not shift the fate of the messages after it.
    const message = mix32(link.base ^ mix32(++link.sent));
    if (this.isBlocked(from, to)) {
      this.dropped++;
      return -1;
    }
    const o = this.options;
    if (faultsOn) {
      const loss = o.messageLossPct + this.extraLossPct;
      if (loss > 0 && percentile(message, SLOT_LOSS) < loss) {
        this.dropped++;
        return -1;
      }
    }
    let delay = between(message, SLOT_DELAY, o.networkDelayMsMin, o.networkDelayMsMax);
    if (faultsOn && o.holdProbabilityPct > 0 && percentile(message, SLOT_HOLD) < o.holdProbabilityPct) delay += between(message, SLOT_HOLD_MS, 1, o.holdMsMax);
    return delay < 1 ? 1 : delay;
  }

  /** The longest one-way delay a message can have while faults are on. */
  maxDelayMs(): number {
    return Math.max(1, this.options.networkDelayMsMax + (this.options.holdProbabilityPct > 0 ? this.options.holdMsMax : 0));
  }
}

/** A draw in 0..99 from one slot of a message. */
function percentile(message: number, slot: number): number {
  return Math.floor(unitOf(message, slot) * 100);
}

/** A draw in [lo, hi] (inclusive) from one slot of a message. */
function between(message: number, slot: number, lo: number, hi: number): number {
  if (hi <= lo) return lo;
  return lo + Math.floor(unitOf(message, slot) * (hi - lo + 1));
}
