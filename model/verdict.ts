// Checker verdicts are three-valued (Jepsen): true, false, or 'unknown' when the checker could
// not decide. A checker that throws yields 'unknown', never a pass.

import type { History } from './history.ts';

export interface Violation {
  readonly invariant: string;
  readonly message: string;
  /** History indices of the events that show the violation. */
  readonly events?: ReadonlyArray<number>;
  readonly scope?: string;
}

export interface Verdict {
  readonly valid: true | false | 'unknown';
  readonly violations: ReadonlyArray<Violation>;
}

export type Checker = (history: History) => Verdict;
