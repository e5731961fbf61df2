// A small in-process lock library, of the kind a service keeps in memory, with a clock of its own:
// it stamps grants with `Date.now()`, ends each lock with a `setTimeout` set for its ttl (and set
// again on each extension), and audits itself on a `setInterval`. It takes the clock it reads its
// time and timers from, the real one (`globalThis`) by default; under the testbed, the clock kit's
// fake clock (timer-lock-store.ts), so that its expiry follows store time (000 §79–§82).

/** The part of a clock the library reads: `globalThis` has it, and so does the clock kit's clock. */
export interface TimerClock {
  readonly Date: { now(): number };
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: never): void;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(id: never): void;
}

export interface Grant {
  readonly name: string;
  readonly owner: string;
  /** Grows with every grant of the name and is never reused (000 §24). */
  readonly token: number;
  readonly acquiredAt: number;
  readonly expiresAt: number;
}

export type AcquireResult = { readonly ok: true; readonly grant: Grant } | { readonly ok: false; readonly holder: Grant };
export type ExtendResult = { readonly ok: true; readonly grant: Grant } | { readonly ok: false; readonly why: 'expired' | 'not-held' };

export interface TimerLocksOptions {
  readonly clock?: TimerClock;
  /** How often the library checks that every lock it holds is within its deadline (default 1000 ms). */
  readonly auditEveryMs?: number;
  /**
   * A bug to plant, for the tests that show it is found: 'extend-leaves-old-timer' sets a new
   * timer on an extension but leaves the old one running, so the lock ends at its first deadline.
   */
  readonly bug?: 'extend-leaves-old-timer';
}

interface Held {
  grant: Grant;
  readonly timer: unknown;
}

export class TimerLocks {
  private readonly held = new Map<string, Held>();
  /** The last lock of a name that timed out, until the name is granted again: its owner is told it expired. */
  private readonly lapsed = new Map<string, Grant>();
  private readonly lastToken = new Map<string, number>();
  private readonly clock: TimerClock;
  private readonly audit: unknown;
  private readonly bug: TimerLocksOptions['bug'];
  /** Locks ended by their timers, and audits run. */
  readonly stats = { timedOut: 0, audits: 0 };

  constructor(options: TimerLocksOptions = {}) {
    this.clock = options.clock ?? (globalThis as unknown as TimerClock);
    this.bug = options.bug;
    this.audit = this.clock.setInterval(() => this.auditOnce(), options.auditEveryMs ?? 1_000);
  }

  /** The lock on `name`, if one is held. */
  holder(name: string): Grant | null {
    return this.held.get(name)?.grant ?? null;
  }

  acquire(name: string, owner: string, ttlMs: number): AcquireResult {
    const holder = this.holder(name);
    if (holder !== null) return { ok: false, holder };
    const now = this.clock.Date.now();
    const token = (this.lastToken.get(name) ?? 0) + 1;
    this.lastToken.set(name, token);
    const grant = { name, owner, token, acquiredAt: now, expiresAt: now + ttlMs };
    this.lapsed.delete(name);
    this.hold(grant, ttlMs);
    return { ok: true, grant };
  }

  /** Moves the deadline of `owner`'s lock under `token` to `ttlMs` from now. */
  extend(name: string, owner: string, token: number, ttlMs: number): ExtendResult {
    const current = this.held.get(name);
    if (current !== undefined && current.grant.owner === owner && current.grant.token === token) {
      if (this.bug !== 'extend-leaves-old-timer') this.clock.clearTimeout(current.timer as never);
      const grant = { ...current.grant, expiresAt: this.clock.Date.now() + ttlMs };
      this.hold(grant, ttlMs);
      return { ok: true, grant };
    }
    const lapsed = this.lapsed.get(name);
    return { ok: false, why: lapsed !== undefined && lapsed.owner === owner && lapsed.token === token ? 'expired' : 'not-held' };
  }

  /** Releases `owner`'s lock under `token`; false if it does not hold it. */
  release(name: string, owner: string, token: number): boolean {
    const current = this.held.get(name);
    if (current === undefined || current.grant.owner !== owner || current.grant.token !== token) return false;
    this.clock.clearTimeout(current.timer as never);
    this.held.delete(name);
    return true;
  }

  /** Stops every timer. */
  close(): void {
    for (const { timer } of this.held.values()) this.clock.clearTimeout(timer as never);
    this.clock.clearInterval(this.audit as never);
  }

  private hold(grant: Grant, ttlMs: number): void {
    const timer = this.clock.setTimeout(() => this.timeOut(grant.name, grant.token), ttlMs);
    this.held.set(grant.name, { grant, timer });
  }

  private timeOut(name: string, token: number): void {
    const current = this.held.get(name);
    if (current === undefined || current.grant.token !== token) return;
    this.held.delete(name);
    this.lapsed.set(name, current.grant);
    this.stats.timedOut++;
  }

  /**
   * A lock held past its deadline means a timer did not fire: the library says so rather than go
   * on. At the deadline itself the lock's timer may not have run yet (it falls due at this instant).
   */
  private auditOnce(): void {
    this.stats.audits++;
    const now = this.clock.Date.now();
    for (const { grant } of this.held.values()) {
      if (grant.expiresAt < now) throw new Error(`lock ${grant.name} of ${grant.owner} is held ${now - grant.expiresAt} ms past its deadline`);
    }
  }
}
