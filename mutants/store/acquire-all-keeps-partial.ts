// acquire-all-keeps-partial — seed 000 §99–§105 (multi-resource acquisition: canonical order, all
// or nothing, compensation), §21–§22. AcquireAll takes the scopes one by one in canonical order
// and, when one is busy, answers Busy but keeps the leases it already took: the caller was told
// it holds nothing, so those leases are never renewed nor released, and every other caller finds
// the scopes busy until they expire.

import type { AcquireAllCommand } from '../../model/commands.ts';
import { grantLease } from '../../model/lease.ts';
import { canonicalOrder } from '../../model/multi-resource.ts';
import type { AcquireAllResult } from '../../model/outcomes.ts';
import { liveLease, type ModelState, type Transition } from '../../model/state.ts';
import { modelMutant, type ReferenceStep } from './model-store.ts';

function acquireOneByOne(state: ModelState, command: AcquireAllCommand, now: number, reference: ReferenceStep): Transition<AcquireAllResult> {
  const answer = reference(state, command, now);
  if (answer.outcome.kind !== 'Busy') return answer;
  let next = state;
  for (const scope of canonicalOrder(command.scopes)) {
    const live = liveLease(next, scope, now);
    // THE BUG: the leases granted before the busy scope stay.
    if (live !== null) return { state: next, outcome: { kind: 'Busy', scope, holder: live.holder, token: live.token } };
    next = grantLease(next, scope, command.holder, command.ttlMs, now).state;
  }
  return answer;
}

export const acquireAllKeepsPartial = modelMutant('acquire-all-keeps-partial', ['AcquireAll'], acquireOneByOne);
