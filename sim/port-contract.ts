// The store port's contract, checked on every answer a store gives in a simulated run: the
// outcome is an object whose `kind` is one of the command's outcome kinds (model/outcome-kinds.ts),
// whose tokens are safe integers, and whose fields have the shape of that outcome
// (outcome-schema.ts); a store that throws anything but the port's two
// infrastructure errors has a bug. Either is a `port-contract` finding naming the command, the
// process and what the store did; the caller sees the call's outcome as unknown.

import type { Command } from '../model/commands.ts';
import { isOutcomeOf, OUTCOME_KINDS } from '../model/outcome-kinds.ts';
import type { Outcome } from '../model/outcomes.ts';
import { shapeBreach } from './outcome-schema.ts';
import type { Violation } from '../model/verdict.ts';

export const PORT_CONTRACT = 'port-contract';

/**
 * Why `outcome` is not an answer the port allows to `command`; null when it is. `shapes`: also
 * validate its fields (false only for the testbed's own in-process stores, whose answers the
 * compiler types: the parse would cost them about 6% of their runs for nothing).
 */
export function contractBreach(command: Command, outcome: unknown, shapes = true): string | null {
  return isOutcomeOf(command, outcome) ? fieldBreach(command, outcome, shapes) : kindBreach(command, outcome);
}

/** Why an answer that is not an outcome of `command` (isOutcomeOf) breaks the port. */
export function kindBreach(command: Command, outcome: unknown): string {
  if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) return `answered ${describe(outcome)}, not an outcome object`;
  return `answered ${describe(outcome)}, which is not an outcome of ${command.kind} (one of ${OUTCOME_KINDS[command.kind].join(', ')})`;
}

/** Why an outcome of `command`'s kinds still breaks the port (its token, with `shapes` its fields); null when it does not. */
export function fieldBreach(command: Command, outcome: Outcome, shapes = true): string | null {
  const token = tokenOf(outcome);
  if (token !== undefined && !(typeof token === 'number' && Number.isSafeInteger(token) && token > 0)) return `answered ${describe(outcome)}: a fencing token must be a positive safe integer`;
  if (!shapes) return null;
  const shape = shapeBreach(command.kind, outcome);
  return shape === null ? null : `answered ${describe(outcome)}, which is not the port's shape of ${outcome.kind}: ${shape}`;
}

/** The token of an outcome that grants or names a lease, if it has one (its fields are not checked yet: any value). */
function tokenOf(outcome: Outcome): unknown {
  const lease: unknown = 'lease' in outcome ? outcome.lease : undefined;
  if (typeof lease === 'object' && lease !== null && 'token' in lease) return lease.token;
  return undefined;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export class PortContract {
  private readonly found: Violation[] = [];

  /** `shapes`: whether answers' fields are validated (contractBreach). */
  constructor(readonly shapes = true) {}

  breach(command: Command, process: string, now: number, what: string): void {
    // The first few are enough to act on; a store that breaks the contract usually does it everywhere.
    if (this.found.length >= 5) return;
    this.found.push({ invariant: PORT_CONTRACT, message: `${command.kind} by ${process} at store time ${now}: the store ${what}` });
  }

  violations(): ReadonlyArray<Violation> {
    return this.found;
  }
}
