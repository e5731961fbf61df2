// renewal-without-epoch-check — seed 000 §33–§34 ("Stale Renewal: Rejected"), §282 renewal race
// test, §160 ("Holder cannot assume lease remains valid"). Renewal is written as an upsert keyed
// by scope: it sets holder, token and expiry from the request without comparing the caller's
// token with the row. A holder that slept through its expiry re-takes the scope with its old
// token on its next heartbeat, even when another holder owns it under a newer token.

import type { RenewCommand } from '../../model/commands.ts';
import type { Lease, RenewResult } from '../../model/outcomes.ts';
import { mapWith } from '../../model/persistent.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { isValidTtl } from '../../model/validation.ts';
import { modelMutant } from './model-store.ts';
import { ruleBookMutate } from './rule-book-mutate.ts';

function renewByScope(state: ModelState, command: RenewCommand, now: number): Transition<RenewResult> {
  const row = state.leases.get(command.scope);
  const continued = row !== undefined && row.holder === command.holder && row.token === command.expectedToken;
  const lease: Lease = {
    scope: command.scope,
    holder: command.holder,
    token: command.expectedToken,
    acquiredAt: continued ? row.acquiredAt : now,
    expiresAt: now + command.ttlMs,
  };
  return { state: { ...state, leases: mapWith(state.leases, command.scope, lease) }, outcome: { kind: 'Renewed', lease } };
}

export const renewalWithoutEpochCheck = modelMutant('renewal-without-epoch-check', ['Renew', 'Mutate'], (state, command, now, reference) => {
  // A lease row under an old token is a state the reference model never reaches; Mutate there
  // follows the rule book, as a real store with this renewal bug would.
  if (command.kind === 'Mutate') return ruleBookMutate(state, command, now);
  // Argument validation is not the rule under test: an out-of-bounds ttl is still rejected.
  return isValidTtl(command.ttlMs) ? renewByScope(state, command, now) : reference(state, command, now);
});
