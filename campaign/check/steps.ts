// The steps of a command-level check: a command of the store port (a template whose placeholders
// are filled from the reference state when it runs), a clock step, a jump to one millisecond
// either side of a live lease's expiry, a change of the caller's clock skew, and a snapshot or
// restore of the store's durable state.

import fc from 'fast-check';
import type { Command, CommandKind } from '../../model/commands.ts';
import { commandArbitraries } from './command-arbitraries.ts';
import { CALLER_SKEWS, CLOCK_STEPS } from './world.ts';

export type CheckStep =
  | { readonly kind: 'command'; readonly command: Command }
  | { readonly kind: 'advance'; readonly ms: number }
  /** The clock to one millisecond either side of the `pick`-th next expiry (lease, permit, reservation or record). */
  | { readonly kind: 'to-expiry'; readonly pick: number; readonly offsetMs: -1 | 0 | 1 }
  | { readonly kind: 'skew'; readonly ms: number }
  | { readonly kind: 'snapshot' }
  | { readonly kind: 'restore' };

export interface StepOptions {
  /** The command kinds the store implements (default: every kind of the port). */
  readonly kinds?: ReadonlyArray<CommandKind>;
  /** Whether snapshot and restore steps are drawn (the store implements both). */
  readonly snapshots: boolean;
  /** Longest sequence of steps in one run. */
  readonly maxSteps: number;
}

/** One step: mostly commands, often clock movement, sometimes a skew, snapshot or restore. */
export function stepArbitrary(options: StepOptions): fc.Arbitrary<CheckStep> {
  const commands = commandArbitraries(options.kinds);
  if (commands.length === 0) throw new Error('the check needs at least one command kind');
  const command = fc.oneof(...commands).map((c): CheckStep => ({ kind: 'command', command: c }));
  const advance = fc.constantFrom(...CLOCK_STEPS).map((ms): CheckStep => ({ kind: 'advance', ms }));
  const toExpiry = fc
    .record({ pick: fc.integer({ min: 0, max: 3 }), offsetMs: fc.constantFrom(-1 as const, 0 as const, 1 as const) })
    .map((s): CheckStep => ({ kind: 'to-expiry', ...s }));
  const skew = fc.constantFrom(...CALLER_SKEWS).map((ms): CheckStep => ({ kind: 'skew', ms }));
  const durable = fc.constantFrom<CheckStep>({ kind: 'snapshot' }, { kind: 'restore' });
  return fc.oneof(
    { weight: 12, arbitrary: command },
    { weight: 3, arbitrary: advance },
    { weight: 2, arbitrary: toExpiry },
    { weight: 1, arbitrary: skew },
    ...(options.snapshots ? [{ weight: 1, arbitrary: durable }] : []),
  );
}

/**
 * Sequences of steps. The size is set explicitly: left at fast-check's default ('small'), an
 * array with only `maxLength` set is capped at 10 elements, too short for most multi-step bugs.
 */
export function stepsArbitrary(options: StepOptions): fc.Arbitrary<ReadonlyArray<CheckStep>> {
  return fc.array(stepArbitrary(options), { minLength: 1, maxLength: options.maxSteps, size: 'max' });
}
