// What one step of a check run did: the command as sent, the two answers compared, and what the
// comparison could not judge (campaign/check/execute.ts makes them; format.ts and broken-rule.ts read them).

import type { CallContext, LifecycleEvent } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { CheckStep } from './steps.ts';

export interface StepRecord {
  /** 1-based position in the run. */
  readonly index: number;
  readonly step: CheckStep;
  /** Store time when the step ran (after it, for clock steps). */
  readonly atMs: number;
  /** The command as sent, placeholders filled. */
  readonly command?: Command;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly note?: string;
  /** The process that sent it (absent: no call context). */
  readonly call?: CallContext;
  /** What a lifecycle step told the store, or would have told a store with `lifecycle`. */
  readonly events?: ReadonlyArray<LifecycleEvent>;
  /** What comparing the two answers could not judge, for a store whose fences are not integers. */
  readonly notJudged?: ReadonlyArray<string>;
  /** A fence the store gave a new lease that it had given another: the rule it broke (fencing-monotonic). */
  readonly reused?: string;
}
