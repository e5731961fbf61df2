// The store under check, with the virtual clock it reads and the caller clock a process would
// hand it. Every run starts from an empty store: a store that can snapshot and restore is opened
// once and restored to its first, empty image before each run (cheap, even on PostgreSQL); any
// other store is built anew by its factory. A store whose fences are not integers is seen through
// the simulator's translation (sim/fence-ids.ts), one for the whole check.

import type { Store, StoreFactory, StoreImage } from '../../adapters/port.ts';
import { fenceIdsFor, fencingOf, withFenceIds, type FenceIds, type FencingKind } from '../../sim/fence-ids.ts';
import { renewalOf } from '../../sim/renewal-kind.ts';
import type { RenewalKind } from '../../model/state.ts';
import { START_MS } from './world.ts';

export interface StoreSessionOptions {
  /** Build a new store for every run even when the store can restore (slower; trusts nothing). */
  readonly freshStore?: boolean;
}

export class StoreSession {
  private current: Store;

  private constructor(
    private readonly factory: StoreFactory,
    opened: Store,
    /** The translation the store's fences go through (null: they are integers). */
    readonly ids: FenceIds | null,
    /** What fences the store's leases (capabilities.fencing). */
    readonly fencing: FencingKind,
    /** What the store's renewals do (capabilities.renewal): the model the check steps beside it follows it. */
    readonly renewal: RenewalKind,
    private readonly empty: StoreImage | null,
    /** Store time, in virtual milliseconds. */
    readonly clock: { t: number },
    /** How far the calling process's clock is from store time. */
    readonly skew: { ms: number },
  ) {
    this.current = this.seen(opened);
  }

  static async open(factory: StoreFactory, options: StoreSessionOptions = {}): Promise<StoreSession> {
    const clock = { t: START_MS };
    const skew = { ms: 0 };
    const store = await factory(timeOptions(clock, skew));
    const empty = options.freshStore !== true && canRestore(store) ? await store.snapshot!() : null;
    return new StoreSession(factory, store, fenceIdsFor(store), fencingOf(store), renewalOf(store), empty, clock, skew);
  }

  /** `store` as the check sees it: behind the translation of its fences, if they are not integers. */
  private seen(store: Store): Store {
    return this.ids === null ? store : withFenceIds(store, this.ids);
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
      this.current = this.seen(await this.factory(timeOptions(this.clock, this.skew)));
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
