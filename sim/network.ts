// The network between nodes: directed partitions (both ways or one-way), random loss, delay and
// hold. A message dropped here is simply never delivered; the sender learns nothing (§160).

import type { FaultOptions } from './fault-options.ts';
import type { Stream } from './prng.ts';

export class Network {
  /** Directed blocked links `from>to`, with the number of partitions that block each. */
  private readonly blocked = new Map<string, number>();
  /** Extra loss (percent) from scripted message-loss windows. */
  extraLossPct = 0;
  dropped = 0;

  constructor(
    private readonly options: FaultOptions,
    private readonly stream: Stream,
  ) {}

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

  /** The delay of a message about to be sent, or -1 when it is lost or the link is cut. */
  transit(from: string, to: string, faultsOn: boolean): number {
    if (this.isBlocked(from, to)) {
      this.dropped++;
      return -1;
    }
    const o = this.options;
    if (faultsOn) {
      const loss = o.messageLossPct + this.extraLossPct;
      if (loss > 0 && this.stream.chance(loss)) {
        this.dropped++;
        return -1;
      }
    }
    let delay = this.stream.int(o.networkDelayMsMin, o.networkDelayMsMax);
    if (faultsOn && o.holdProbabilityPct > 0 && this.stream.chance(o.holdProbabilityPct)) delay += this.stream.int(1, o.holdMsMax);
    return delay < 1 ? 1 : delay;
  }

  /** The longest one-way delay a message can have while faults are on. */
  maxDelayMs(): number {
    return Math.max(1, this.options.networkDelayMsMax + (this.options.holdProbabilityPct > 0 ? this.options.holdMsMax : 0));
  }
}
