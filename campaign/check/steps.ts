// The steps of a command-level check: a command of the store port (a template whose placeholders
// are filled from the reference state when it runs) made by a process of a node, a clock step, a
// jump to one millisecond either side of a live lease's expiry, a change of the caller's clock
// skew, a lifecycle event (a process crashes, restarts, pauses or is cut off; the database
// crashes), and a snapshot or restore of the store's durable state.

import fc from 'fast-check';
import type { Command, CommandKind } from '../../model/commands.ts';
import { commandArbitraries } from './command-arbitraries.ts';
import type { CallTemplate, ProcessEvent } from './processes.ts';
import { STEP_FORMAT, type StepFormat } from './step-format.ts';
import { CALLER_SKEWS, CLOCK_STEPS, NODES, type World } from './world.ts';

export type CheckStep =
  /** Without `call`, the command comes from no process, as setup and recovery on the database host do. */
  | { readonly kind: 'command'; readonly command: Command; readonly call?: CallTemplate }
  | { readonly kind: 'advance'; readonly ms: number }
  /** The clock to one millisecond either side of the `pick`-th next expiry (lease, permit, reservation or record). */
  | { readonly kind: 'to-expiry'; readonly pick: number; readonly offsetMs: -1 | 0 | 1 }
  | { readonly kind: 'skew'; readonly ms: number }
  | { readonly kind: 'lifecycle'; readonly event: ProcessEvent; readonly node: string }
  | { readonly kind: 'lifecycle'; readonly event: 'database-crash' }
  | { readonly kind: 'snapshot' }
  | { readonly kind: 'restore' };

export interface StepOptions {
  /** The command kinds the store implements (default: every kind of the port). */
  readonly kinds?: ReadonlyArray<CommandKind>;
  /** Whether snapshot and restore steps are drawn (the store implements both). */
  readonly snapshots: boolean;
  /** Longest sequence of steps in one run. */
  readonly maxSteps: number;
  /** The step format (default STEP_FORMAT). */
  readonly format?: StepFormat;
  /** The scopes, holders, ids and keys commands name (default the small world, world.ts). */
  readonly world?: World;
}

const node = fc.constantFrom(...NODES);
/**
 * Mostly a node's current process, sometimes its previous one (a late call), sometimes no process
 * at all. A call shrinks to none, so that a counterexample names the processes that matter only.
 */
const call = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constant<CallTemplate | undefined>(undefined) },
  { weight: 6, arbitrary: node.map((n): CallTemplate | undefined => ({ node: n })) },
  { weight: 2, arbitrary: node.map((n): CallTemplate | undefined => ({ node: n, earlier: true })) },
);
const PROCESS_EVENTS: ReadonlyArray<ProcessEvent> = ['crash', 'restart', 'pause', 'resume', 'cut-off', 'reconnect'];
const lifecycle = fc.oneof(
  { weight: 6, arbitrary: fc.record({ event: fc.constantFrom(...PROCESS_EVENTS), node }).map((s): CheckStep => ({ kind: 'lifecycle', ...s })) },
  { weight: 1, arbitrary: fc.constant<CheckStep>({ kind: 'lifecycle', event: 'database-crash' }) },
);

/** One step: mostly commands, often clock movement, sometimes a skew, lifecycle event, snapshot or restore. */
export function stepArbitrary(options: StepOptions): fc.Arbitrary<CheckStep> {
  const format = options.format ?? STEP_FORMAT;
  const commands = commandArbitraries(options.kinds, format, options.world);
  if (commands.length === 0) throw new Error('the check needs at least one command kind');
  const advance = fc.constantFrom(...CLOCK_STEPS).map((ms): CheckStep => ({ kind: 'advance', ms }));
  const toExpiry = fc
    .record({ pick: fc.integer({ min: 0, max: 3 }), offsetMs: fc.constantFrom(-1 as const, 0 as const, 1 as const) })
    .map((s): CheckStep => ({ kind: 'to-expiry', ...s }));
  const skew = fc.constantFrom(...CALLER_SKEWS).map((ms): CheckStep => ({ kind: 'skew', ms }));
  const durable = fc.constantFrom<CheckStep>({ kind: 'snapshot' }, { kind: 'restore' });
  const snapshots = options.snapshots ? [{ weight: 1, arbitrary: durable }] : [];
  if (format === 1) {
    // Format 1 exactly as it was drawn, arbitrary for arbitrary: a path walks fast-check's choices.
    const command = fc.oneof(...commands).map((c): CheckStep => ({ kind: 'command', command: c }));
    return fc.oneof({ weight: 12, arbitrary: command }, { weight: 3, arbitrary: advance }, { weight: 2, arbitrary: toExpiry }, { weight: 1, arbitrary: skew }, ...snapshots);
  }
  const command = fc.tuple(fc.oneof(...commands), call).map(([c, by]): CheckStep => (by === undefined ? { kind: 'command', command: c } : { kind: 'command', command: c, call: by }));
  return fc.oneof(
    { weight: 12, arbitrary: command },
    { weight: 3, arbitrary: advance },
    { weight: 2, arbitrary: toExpiry },
    { weight: 1, arbitrary: skew },
    { weight: 1, arbitrary: lifecycle },
    ...snapshots,
  );
}

/**
 * Sequences of steps. The size is set explicitly: left at fast-check's default ('small'), an
 * array with only `maxLength` set is capped at 10 elements, too short for most multi-step bugs.
 */
export function stepsArbitrary(options: StepOptions): fc.Arbitrary<ReadonlyArray<CheckStep>> {
  return fc.array(stepArbitrary(options), { minLength: 1, maxLength: options.maxSteps, size: 'max' });
}
