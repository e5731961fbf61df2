// The clock kit: virtual time for an in-process library under test (docs/ARCHITECTURE.md "The
// clock kit"). A library that reads `Date.now()` and runs `setTimeout`/`setInterval` work of its
// own (a sweeper that deletes expired locks, a TTL cache, a heartbeat) is given a fake clock
// (@sinonjs/fake-timers) instead of the real one, and the store that wraps it (`kit.drive(store)`)
// brings that clock to the store's TimeSource before every call, running each timer and interval
// that falls due on the way, in order, each at its own virtual time. So the library's clock is the
// store's clock, the one that decides expiry (000 §79–§82), and a run replays exactly.
//
// The clock is installed only where the adapter puts it (`kit.clock` handed to the library, or
// `kit.install(target)` on an object the library reads its timers from), never on `globalThis` by
// default: the testbed's own timers (the call time limit, progress, throughput) stay real.

import { withGlobal, type Clock } from '@sinonjs/fake-timers';
import type { Store, TimeSource } from './port.ts';
import { driveStore, type KitDriver } from './clock-driven-store.ts';
import { StoreEscapeError } from './store-escape.ts';

/** Made when this module loads, so that its yields between timers use the real setImmediate even if a user later fakes the global one. */
const fakeTimers = withGlobal(globalThis);

/** The timer functions `install` puts on a target unless told which. Microtask and immediate queues stay real: a call may await them while virtual time stands still. */
export const DEFAULT_FAKED = ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] as const;
export type FakedName = (typeof DEFAULT_FAKED)[number] | 'setImmediate' | 'clearImmediate' | 'performance';

export interface ClockKit {
  /** The fake clock to hand the library: `clock.Date.now()`, `clock.setTimeout`, `clock.setInterval`, ... */
  readonly clock: Clock;
  /** Puts the clock's `names` on `target` (an object the library reads its timers from); `close` of the driven store puts the originals back. */
  install<T extends object>(target: T, names?: ReadonlyArray<FakedName>): T;
  /** Runs `maintenance` every `ms` of virtual time (a library's periodic sweep that it leaves to its host); an error it throws or rejects with is a finding. */
  every(ms: number, maintenance: () => unknown): void;
  /** `store` driven by the kit: the clock follows store time before each call, and an error escaping the library is thrown as a StoreEscapeError. */
  drive(store: Store): Store;
}

/** A clock kit on `time`, the TimeSource a store module's factory is given (`options.time`). */
export function clockKit(time: TimeSource | 'database'): ClockKit {
  if (time === 'database') throw new Error("the clock kit follows a TimeSource; a store on the database's own clock ('database') has no virtual time to follow");
  const clock = fakeTimers.createClock(time.now());
  const escapes = new Escapes(clock);
  guardCallbacks(clock, escapes);
  const installed: Array<() => void> = [];
  // The advance under way, if any. Calls made at once (stress's clients on one store) advance one
  // at a time: fake-timers reads the clock's time when a tick starts, not when it is asked for, so
  // two ticks asked for at once would carry the clock past store time.
  let ticking: Promise<void> | null = null;
  const driver: KitDriver = {
    async advance(call) {
      while (ticking !== null) await ticking;
      // Named once the ticks before it ran: what escapes from here on runs on this call's tick.
      escapes.current = call;
      const target = time.now();
      // Store time never goes back in a run; if a TimeSource did, the clock waits for it to catch up.
      if (target <= clock.now) return;
      const tick = clock.tickAsync(target - clock.now);
      ticking = tick.then(
        () => undefined,
        () => undefined,
      );
      try {
        await tick;
      } finally {
        ticking = null;
      }
    },
    inFlight: (call) => escapes.inFlight(call),
    takeEscape: () => escapes.take(),
    dispose() {
      clock.reset();
      for (const undo of installed.splice(0).reverse()) undo();
    },
  };
  return {
    clock,
    install(target, names = DEFAULT_FAKED) {
      const record = target as Record<string, unknown>;
      for (const name of names) {
        const had = Object.prototype.hasOwnProperty.call(record, name);
        const original = record[name];
        record[name] = (clock as unknown as Record<string, unknown>)[name];
        installed.push(() => (had ? (record[name] = original) : delete record[name]));
      }
      return target;
    },
    every(ms, maintenance) {
      if (!(Number.isInteger(ms) && ms > 0)) throw new Error(`every(ms, …) needs a positive whole number of milliseconds, got ${ms}`);
      clock.setInterval(() => escapes.run(`the maintenance every ${ms} ms`, maintenance), ms);
    },
    drive: (store) => driveStore(store, driver),
  };
}

/** Errors that escaped the library through the kit's clock, kept until the next call throws the first. */
class Escapes {
  /** The call in flight, or the last one (`after …`) once it settled. */
  current = 'the store was opened';
  private pending: StoreEscapeError | null = null;

  constructor(private readonly clock: Clock) {}

  inFlight(call: string | null): void {
    this.current = call ?? (this.current.startsWith('after ') ? this.current : `after ${this.current}`);
  }

  /** Runs a callback of the library's; a throw or a rejected promise it returns is recorded, never left to crash the process. */
  run(what: string, callback: () => unknown): void {
    const source = `${what}, at virtual time ${this.clock.now}`;
    try {
      const result = callback();
      if (isThenable(result)) result.then(undefined, (error: unknown) => this.record(source, error));
    } catch (error) {
      this.record(source, error);
    }
  }

  record(source: string, error: unknown): void {
    this.pending ??= new StoreEscapeError({ call: this.current, source }, error);
  }

  take(): StoreEscapeError | null {
    const error = this.pending;
    this.pending = null;
    return error;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Every callback the library schedules on the clock runs through `escapes.run`: fake-timers would
 * rethrow a timer's exception out of the tick, and leave a rejected promise a timer returned to the
 * process, where it would end the run with no call named.
 */
function guardCallbacks(clock: Clock, escapes: Escapes): void {
  const kinds = [
    ['setTimeout', 'a timeout'],
    ['setInterval', 'an interval'],
    ['setImmediate', 'an immediate'],
  ] as const;
  for (const [name, what] of kinds) {
    const schedule = clock[name] as unknown as (callback: unknown, ...rest: unknown[]) => unknown;
    const guarded = (callback: unknown, ...rest: unknown[]): unknown => {
      if (typeof callback !== 'function') return schedule.call(clock, callback, ...rest);
      const due = name === 'setImmediate' ? 0 : Number(rest[0] ?? 0);
      const label = `${what} of ${Number.isFinite(due) ? due : 0} ms set at virtual time ${clock.now}`;
      return schedule.call(clock, (...args: unknown[]) => escapes.run(label, () => (callback as (...a: unknown[]) => unknown)(...args)), ...rest);
    };
    (clock as unknown as Record<string, unknown>)[name] = guarded;
  }
}
