// renew-revives-expired — seed 000 §31–§35 ("Lease Expiry", "Stale Renewal: Rejected"), §160
// ("Holder cannot assume lease remains valid"), §282. Renewal finds the caller's own row and
// extends it without asking whether it already expired: a holder that paused past its expiry
// renews a dead lease back to life and carries on as if it had never lost it.

import { mapWith } from '../../model/persistent.ts';
import { isValidTtl } from '../../model/validation.ts';
import { modelMutant } from './model-store.ts';

export const renewRevivesExpired = modelMutant('renew-revives-expired', ['Renew'], (state, command, now, reference) => {
  const row = state.leases.get(command.scope);
  if (!isValidTtl(command.ttlMs) || row === undefined || row.token !== command.expectedToken || row.holder !== command.holder || now < row.expiresAt) return reference(state, command, now);
  const lease = { ...row, expiresAt: now + command.ttlMs };
  return { state: { ...state, leases: mapWith(state.leases, command.scope, lease) }, outcome: { kind: 'Renewed', lease } };
});
