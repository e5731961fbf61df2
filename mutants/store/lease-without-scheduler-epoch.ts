// lease-without-scheduler-epoch — seed 001 §27–§28 ("A scheduler leader can only issue lease
// operations if its epoch is current"), §93 ("Lease Creation Transaction: Validate scheduler
// epoch"), §263 scheduler epoch test. The lease-creation transaction ignores the guard: it neither
// compares the caller's epoch with the stored role epoch nor records it, so a deposed leader's
// lease is created as if it were current.

import type { AcquireCommand, MutateCommand } from '../../model/commands.ts';
import { modelMutant } from './model-store.ts';

/** The command as a store that ignores role guards reads it (mutate-without-role-guard.ts too). */
export function withoutGuard<C extends AcquireCommand | MutateCommand>(command: C): C {
  const { guard: _ignored, ...rest } = command;
  return rest as C;
}

export const leaseWithoutSchedulerEpoch = modelMutant('lease-without-scheduler-epoch', ['Acquire'], (state, command, now, reference) => reference(state, withoutGuard(command), now));
