// epoch-reset-after-restore — seed 000 §271–§276 ("No Downgrade That Resets Epoch", "Restore
// Rule: all pre-restore active leases considered invalid"), §297 DR restore test. The recovery
// procedure invalidates and blocks as it should, but the token floor is not raised: the recovery
// epoch stays what the restored image says, so the per-scope counters restart from the image and
// tokens handed out after the backup are handed out a second time.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const epochResetAfterRestore: Mutant = {
  name: 'epoch-reset-after-restore',
  bug: 'AdvanceRecoveryEpoch does not raise the token floor: after a restore or failover, tokens restart from the older image',
  source: '000 §271–§276, §297',
  rule: 'Recovery: AdvanceRecoveryEpoch (recoveryEpoch := max(recoveryEpoch + 1, atLeast), lifting every later token)',
  invariants: ['one-owner-per-epoch', 'fencing-monotonic', 'restore-invalidates'],
  scenarios: ['restore', 'db-failover'],
  store: () =>
    modelMutantStore('epoch-reset-after-restore', ['AdvanceRecoveryEpoch'], (state, command, now, reference) => {
      const advanced = reference(state, command, now);
      return { state: { ...advanced.state, recoveryEpoch: state.recoveryEpoch }, outcome: advanced.outcome };
    }),
};
