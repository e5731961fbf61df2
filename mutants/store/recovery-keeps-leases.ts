// recovery-keeps-leases — seed 000 §272–§276 ("Restore Rule: all pre-restore active leases
// considered invalid"), §297 DR restore test. The recovery procedure raises the token floor and
// blocks the protected scopes, but leaves the leases the restored image holds in place: a holder
// whose lease was live in the backup keeps writing under its pre-restore token.

import { modelMutant } from './model-store.ts';

export const recoveryKeepsLeases = modelMutant('recovery-keeps-leases', ['AdvanceRecoveryEpoch'], (state, command, now, reference) => {
  const advanced = reference(state, command, now);
  return { state: { ...advanced.state, leases: state.leases, tombstones: state.tombstones }, outcome: { ...advanced.outcome, invalidated: 0 } };
});
