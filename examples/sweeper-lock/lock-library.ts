// A tiny in-process lock library, the kind a service keeps in memory: named locks with a TTL, a
// fencing token per grant, and a sweeper on `setInterval` that deletes the locks that expired. It
// reads time with `Date.now()` and schedules with `setInterval`, as such libraries do, from the
// clock it is given: the real one (`globalThis`) in production, the clock kit's fake clock under
// the testbed (adapters/clock-kit.ts), so that its expiry and its sweeper follow store time.
//
// The sweeper is what the example is about. `sweep: 'expired'` deletes a lock once its current
// expiry has passed; `sweep: 'first-deadline'` is the bug: it deletes a lock once the deadline of
// its first grant has passed, forgetting that a renewal moved it, so a lock its holder just renewed
// is deleted under it and granted to another.

/** The part of a clock the library reads: `globalThis` has it, and so does the kit's clock. */
export interface LockClock {
  readonly Date: { now(): number };
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(id: never): void;
}

export interface Lock {
  readonly name: string;
  readonly owner: string;
  readonly token: number;
  readonly acquiredAt: number;
  /** The deadline of the grant; a renewal leaves it as it is. */
  readonly firstDeadline: number;
  expiresAt: number;
}

export interface LockTableOptions {
  readonly clock?: LockClock;
  /** How often the sweeper runs (default 250 ms). */
  readonly sweepEveryMs?: number;
  /** Which locks the sweeper deletes: those expired (correct), or those past their first deadline (the bug). */
  readonly sweep?: 'expired' | 'first-deadline';
}

export type AcquireResult = { readonly granted: true; readonly lock: Lock } | { readonly granted: false; readonly holder: Lock };
export type RenewResult = { readonly renewed: true; readonly lock: Lock } | { readonly renewed: false; readonly why: 'not-held' | 'expired'; readonly holder: Lock | null };

export class LockTable {
  private readonly locks = new Map<string, Lock>();
  /** The last lock per name the sweeper deleted: its holder's renewal is told it expired, not that it never held it. */
  private readonly swept = new Map<string, Lock>();
  /** The last token granted per name, kept after the lock is gone so that tokens only grow. */
  private readonly lastToken = new Map<string, number>();
  private readonly clock: LockClock;
  private readonly sweeper: unknown;
  /** How many times the sweeper ran, and how many locks it deleted. */
  readonly stats = { sweeps: 0, swept: 0 };

  constructor(options: LockTableOptions = {}) {
    this.clock = options.clock ?? (globalThis as unknown as LockClock);
    const deadline = options.sweep === 'first-deadline' ? (lock: Lock) => lock.firstDeadline : (lock: Lock) => lock.expiresAt;
    this.sweeper = this.clock.setInterval(() => this.sweepOnce(deadline), options.sweepEveryMs ?? 250);
  }

  /** The lock on `name` if it is held now: expiry is decided by the clock, whether or not the sweeper came by. */
  held(name: string): Lock | null {
    const lock = this.locks.get(name);
    return lock !== undefined && this.clock.Date.now() < lock.expiresAt ? lock : null;
  }

  acquire(name: string, owner: string, ttlMs: number): AcquireResult {
    const holder = this.held(name);
    if (holder !== null) return { granted: false, holder };
    const now = this.clock.Date.now();
    const token = (this.lastToken.get(name) ?? 0) + 1;
    this.lastToken.set(name, token);
    const lock: Lock = { name, owner, token, acquiredAt: now, firstDeadline: now + ttlMs, expiresAt: now + ttlMs };
    this.locks.set(name, lock);
    this.swept.delete(name);
    return { granted: true, lock };
  }

  renew(name: string, owner: string, token: number, ttlMs: number): RenewResult {
    const lock = this.locks.get(name) ?? this.swept.get(name);
    if (lock === undefined || lock.owner !== owner || lock.token !== token) return { renewed: false, why: 'not-held', holder: this.held(name) };
    const now = this.clock.Date.now();
    if (now >= lock.expiresAt) return { renewed: false, why: 'expired', holder: null };
    lock.expiresAt = now + ttlMs;
    return { renewed: true, lock };
  }

  /** Releases the lock if `owner` holds it under `token`; false otherwise. */
  release(name: string, owner: string, token: number): boolean {
    const lock = this.held(name);
    if (lock === null || lock.owner !== owner || lock.token !== token) return false;
    this.locks.delete(name);
    return true;
  }

  /** Stops the sweeper. */
  stop(): void {
    this.clock.clearInterval(this.sweeper as never);
  }

  private sweepOnce(deadline: (lock: Lock) => number): void {
    const now = this.clock.Date.now();
    this.stats.sweeps++;
    for (const [name, lock] of this.locks) {
      if (deadline(lock) <= now) {
        this.locks.delete(name);
        this.swept.set(name, lock);
        this.stats.swept++;
      }
    }
  }
}
