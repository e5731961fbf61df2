// epoch-reset-after-restore — seed 000 §271–§276 ("No Downgrade That Resets Epoch", "Restore
// Rule: all pre-restore active leases considered invalid"), §297 DR restore test. The recovery
// procedure invalidates and blocks as it should, but the token floor is not raised: the recovery
// epoch stays what the restored image says, so the per-scope counters restart from the image and
// tokens handed out after the backup are handed out a second time.

import { modelMutant } from './model-store.ts';

export const epochResetAfterRestore = modelMutant('epoch-reset-after-restore', ['AdvanceRecoveryEpoch'], (state, command, now, reference) => {
  const advanced = reference(state, command, now);
  return { state: { ...advanced.state, recoveryEpoch: state.recoveryEpoch }, outcome: advanced.outcome };
});
