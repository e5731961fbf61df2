// The rule a counterexample's last step breaks, named as the stages that judge histories name
// theirs, so that a divergence reads as more than "differs": a fence given to a new lease that an
// earlier lease had (fencing-monotonic), a command on a lease that is not the live one acted on
// (stale-fence), a store that threw instead of answering (port-contract), and otherwise an outcome
// that is not the rule book's (differential).

import type { StepRecord } from './step-record.ts';
import { describeStep } from './format.ts';

export interface BrokenRule {
  readonly rule: 'fencing-monotonic' | 'stale-fence' | 'port-contract' | 'differential';
  readonly why: string;
}

const kindOf = (answer: unknown): string | undefined => {
  const kind = (answer as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : undefined;
};

/** Answers by which the rule book refuses a command that names a lease other than the scope's live one. */
const REFUSED_AS_STALE: ReadonlySet<string> = new Set(['Stale', 'StaleFence', 'StaleAttempt']);

export function brokenRule(record: StepRecord): BrokenRule {
  const what = record.command?.kind ?? describeStep(record.step);
  if (record.reused !== undefined) return { rule: 'fencing-monotonic', why: `a fence reused: ${record.reused}` };
  const thrown = (record.actual as { thrown?: unknown } | null)?.thrown;
  if (typeof thrown === 'string') return { rule: 'port-contract', why: `${what} threw ${thrown} instead of answering` };
  // A lifecycle step answers with the leases the event ended; the rule book ends none (model/SEMANTICS.md).
  if (record.step.kind === 'lifecycle') return { rule: 'differential', why: `${what} ended ${JSON.stringify(record.actual)} where the rule book ends nothing (${JSON.stringify(record.expected)})` };
  const actual = kindOf(record.actual);
  const expected = kindOf(record.expected);
  if (expected !== undefined && REFUSED_AS_STALE.has(expected) && actual !== expected) {
    return { rule: 'stale-fence', why: `${what} names a lease that is not the scope's live one, and the store answered ${actual ?? 'otherwise'} where the rule book answers ${expected}` };
  }
  if (actual === expected) return { rule: 'differential', why: `${what} answered ${actual ?? 'otherwise'} as the rule book does, with other fields` };
  return { rule: 'differential', why: `${what} answered ${actual ?? JSON.stringify(record.actual)} where the rule book answers ${expected ?? JSON.stringify(record.expected)}` };
}
