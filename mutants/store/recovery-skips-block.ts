// recovery-skips-block — seed 000 §237 (BlockedForReconciliation), §272–§276 (restore: protected
// scopes stay blocked until reconciled), §297. The recovery epoch is advanced and the old leases
// invalidated, but the scopes the procedure names are never blocked: a new owner takes a
// protected scope before anyone has looked at what the pre-restore owner left in flight.

import { modelMutant } from './model-store.ts';

export const recoverySkipsBlock = modelMutant('recovery-skips-block', ['AdvanceRecoveryEpoch'], (state, command, now, reference) => reference(state, { ...command, blockScopes: [] }, now));
