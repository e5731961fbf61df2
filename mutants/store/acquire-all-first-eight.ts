// acquire-all-first-eight — seed 000 §99–§109 (multi-resource acquisition: every scope in
// canonical order, all or nothing), §21–§24 (one owner per scope). The store checks the scopes of
// an AcquireAll in one batch of eight bound parameters (`... WHERE scope IN ($1, …, $8) FOR
// UPDATE`) and, written for the two or three scopes a deployment takes, never runs a second
// batch: past the eighth scope in canonical order nothing is checked, and each is leased to the
// caller even when another holder's lease on it is live. A bug of many scopes at once: only a
// request for nine or more shows it.

import type { AcquireAllCommand } from '../../model/commands.ts';
import { canonicalOrder, grantEach } from '../../model/multi-resource.ts';
import type { AcquireAllResult } from '../../model/outcomes.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { modelMutant, type ReferenceStep } from './model-store.ts';

/** The scopes one batch checks. */
export const CHECKED_SCOPES = 8;

function acquireFirstBatch(state: ModelState, command: AcquireAllCommand, now: number, reference: ReferenceStep): Transition<AcquireAllResult> {
  const answer = reference(state, command, now);
  const ordered = canonicalOrder(command.scopes);
  // The arguments are validated in full, before any scope is read; a refusal within the batch stands.
  const badArguments = answer.outcome.kind === 'Rejected' && (answer.outcome.reason === 'ttl-out-of-bounds' || answer.outcome.reason === 'invalid-argument');
  if (ordered.length <= CHECKED_SCOPES || answer.outcome.kind === 'AcquiredAll' || badArguments) return answer;
  const batch = reference(state, { ...command, scopes: ordered.slice(0, CHECKED_SCOPES) }, now);
  if (batch.outcome.kind !== 'AcquiredAll') return answer;
  // THE BUG: the scopes past the batch are leased unchecked, over a live lease or a queue.
  const { state: next, leases } = grantEach(state, ordered, command.holder, command.ttlMs, now);
  return { state: next, outcome: { kind: 'AcquiredAll', leases } };
}

export const acquireAllFirstEight = modelMutant('acquire-all-first-eight', ['AcquireAll'], acquireFirstBatch);
