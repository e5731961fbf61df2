// The store under check, with the virtual clock it reads and the caller clock a process would
// hand it. Every run starts from an empty store: a store that can snapshot and restore is opened
// once and restored to its first, empty image before each run (cheap, even on PostgreSQL); any
// other store is built anew by its factory.

import type { Store, StoreFactory, StoreImage } from '../../adapters/port.ts';
import { START_MS } from './world.ts';

export interface StoreSessionOptions {
  /** Build a new store for every run even when the store can restore (slower; trusts nothing). */
  readonly freshStore?: boolean;
}

export class StoreSession {
  private constructor(
    private readonly factory: StoreFactory,
    private current: Store,
    private readonly empty: StoreImage | null,
    /** Store time, in virtual milliseconds. */
    readonly clock: { t: number },
    /** How far the calling process's clock is from store time. */
    readonly skew: { ms: number },
  ) {}

  static async open(factory: StoreFactory, options: StoreSessionOptions = {}): Promise<StoreSession> {
    const clock = { t: START_MS };
    const skew = { ms: 0 };
    const store = await factory(timeOptions(clock, skew));
    const empty = options.freshStore !== true && canRestore(store) ? await store.snapshot!() : null;
    return new StoreSession(factory, store, empty, clock, skew);
  }

  get store(): Store {
    return this.current;
  }

  /** Whether snapshot and restore steps can be drawn. */
  get durable(): boolean {
    return canRestore(this.current);
  }

  /** The store, empty, with the clock at the start and no skew. */
  async reset(): Promise<Store> {
    this.clock.t = START_MS;
    this.skew.ms = 0;
    if (this.empty !== null) {
      await this.current.restore!(this.empty);
    } else {
      await this.current.close();
      this.current = await this.factory(timeOptions(this.clock, this.skew));
    }
    return this.current;
  }

  async close(): Promise<void> {
    await this.current.close();
  }
}

function canRestore(store: Store): boolean {
  return typeof store.snapshot === 'function' && typeof store.restore === 'function';
}

function timeOptions(clock: { t: number }, skew: { ms: number }) {
  return { time: { now: () => clock.t }, callerClock: { now: () => clock.t + skew.ms } };
}
