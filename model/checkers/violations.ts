// Building verdicts: every violation names its invariant, a readable message and the history
// indices that show it, so a report can point at the exact events.

import type { Verdict, Violation } from '../verdict.ts';

export function violation(invariant: string, message: string, events: ReadonlyArray<number>, scope?: string): Violation {
  const sorted = [...new Set(events)].sort((a, b) => a - b);
  return scope === undefined ? { invariant, message, events: sorted } : { invariant, message, events: sorted, scope };
}

/** A checker that looked at everything it needed: false when it found a violation, else true. */
export function verdictOf(violations: ReadonlyArray<Violation>): Verdict {
  return { valid: violations.length === 0, violations };
}
