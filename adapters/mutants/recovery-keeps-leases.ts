// recovery-keeps-leases — seed 000 §272–§276 ("Restore Rule: all pre-restore active leases
// considered invalid"), §297 DR restore test. The recovery procedure raises the token floor and
// blocks the protected scopes, but leaves the leases the restored image holds in place: a holder
// whose lease was live in the backup keeps writing under its pre-restore token.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const recoveryKeepsLeases: Mutant = {
  name: 'recovery-keeps-leases',
  bug: 'AdvanceRecoveryEpoch keeps the live leases of the restored image instead of invalidating them',
  source: '000 §272–§276, §297',
  rule: 'Recovery: AdvanceRecoveryEpoch (every live lease gets a tombstone restored and is removed)',
  invariants: ['restore-invalidates'],
  scenarios: ['restore', 'db-failover'],
  store: () =>
    modelMutantStore('recovery-keeps-leases', ['AdvanceRecoveryEpoch'], (state, command, now, reference) => {
      const advanced = reference(state, command, now);
      return { state: { ...advanced.state, leases: state.leases, tombstones: state.tombstones }, outcome: { ...advanced.outcome, invalidated: 0 } };
    }),
};
