// Where a client aims its sends: just before a lease's expiry, the boundary at which a store's
// check and its write can be split by the lease expiring in between. Expiry is in store time; the
// client learns how store time relates to its own wall clock (the store time of a grant against
// the middle of the call that got it) and how long its calls take, and sends a little earlier than
// the boundary, by up to three round trips (a store may decide a few statements after the command
// arrives), so that the store decides on the command around the boundary.

import type { Stream } from '../../sim/prng.ts';
import { wallNow } from './history.ts';

export class Aim {
  /** Store time minus wall-clock time, as last seen. */
  private offset = 0;
  /** Round-trip time of a call, smoothed. */
  private roundTrip = 1;

  constructor(private readonly random: Stream) {}

  /** A call took this long (wall-clock ms). */
  took(ms: number): void {
    this.roundTrip = 0.8 * this.roundTrip + 0.2 * ms;
  }

  /** The store decided at `storeTime` during a call from `invokedAt` to `completedAt` (wall clock). */
  saw(storeTime: number, invokedAt: number, completedAt: number): void {
    this.offset = storeTime - (invokedAt + completedAt) / 2;
  }

  /** Wall-clock ms until `storeTime`. */
  waitUntil(storeTime: number): number {
    return storeTime - this.offset - wallNow();
  }

  /** Wall-clock ms to wait so that a command sent then reaches the store just before `storeTime`. */
  waitBefore(storeTime: number): number {
    const lead = this.random.int(0, Math.ceil(3 * this.roundTrip) + 2);
    return storeTime - this.offset - wallNow() - lead;
  }
}
