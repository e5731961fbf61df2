// lease-without-scheduler-epoch — seed 001 §27–§28 ("A scheduler leader can only issue lease
// operations if its epoch is current"), §93 ("Lease Creation Transaction: Validate scheduler
// epoch"), §263 scheduler epoch test. The lease-creation transaction ignores the guard: it neither
// compares the caller's epoch with the stored role epoch nor records it, so a deposed leader's
// lease is created as if it were current.

import type { AcquireCommand } from '../../model/commands.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

function withoutGuard(command: AcquireCommand): AcquireCommand {
  const { guard: _ignored, ...rest } = command;
  return rest;
}

export const leaseWithoutSchedulerEpoch: Mutant = {
  name: 'lease-without-scheduler-epoch',
  bug: 'Acquire ignores the role guard: a lease is created under a scheduler epoch older than the store has seen',
  source: '001 §27–§28, §93, §263',
  rule: 'Leases: Acquire step 1 (guard.epoch < stored → Fenced, else stored := guard.epoch)',
  invariants: ['fenced-stale-leader'],
  scenarios: ['scheduler-epoch', 'stale-leader-epoch', 'minority-partition'],
  store: () => modelMutantStore('lease-without-scheduler-epoch', ['Acquire'], (state, command, now, reference) => reference(state, withoutGuard(command), now)),
};
