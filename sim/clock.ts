// A controller's local clock: true virtual time plus a constant offset (skew) and a drift in parts
// per million. Controllers measure durations with it (§81); the store never reads it (§79–§80)
// except through `callerClock`, which only a mutant consults.

import { strict as assert } from 'node:assert';

export class LocalClock {
  offsetMs = 0;
  driftPpm = 0;
  /** The monotonic reading when the drift last changed, and the true time it changed at. */
  private monoBase = 0;
  private monoAt = 0;

  /** A clock-skew fault: the wall clock steps to a new offset and runs at a new rate from `trueMs` on. */
  skew(trueMs: number, offsetMs: number, driftPpm: number): void {
    this.monoBase = this.monotonic(trueMs);
    this.monoAt = trueMs;
    this.offsetMs = offsetMs;
    this.driftPpm = driftPpm;
  }

  /**
   * The clock a process times its waits with: it runs at the clock's rate, drift included, and
   * never steps (a skew changes the wall clock's offset, not this).
   */
  monotonic(trueMs: number): number {
    const since = trueMs - this.monoAt;
    return this.monoBase + since + Math.trunc((since * this.driftPpm) / 1_000_000);
  }

  /** Local reading at true time `trueMs`. */
  read(trueMs: number): number {
    return trueMs + this.offsetMs + Math.trunc((trueMs * this.driftPpm) / 1_000_000);
  }

  /** True duration that elapses while this clock advances by `localMs` (at least 1 ms). */
  trueDuration(localMs: number): number {
    if (localMs < 0) assert.fail('a local duration is not negative');
    const d = Math.ceil((localMs * 1_000_000) / (1_000_000 + this.driftPpm));
    return d < 1 ? 1 : d;
  }
}
