// A controller's local clock: true virtual time plus a constant offset (skew) and a drift in parts
// per million. Controllers measure durations with it (§81); the store never reads it (§79–§80)
// except through `callerClock`, which only a mutant consults.

import { strict as assert } from 'node:assert';

export class LocalClock {
  offsetMs = 0;
  driftPpm = 0;

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
