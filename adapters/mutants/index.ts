// The mutant catalogue (DESIGN.md "Scenarios and mutants"): one bug each, drawn from seed 000 and
// from the real races of seeds 002 and 003. The order is the order of the mutation report.

import { advisoryLockOnly } from './advisory-lock-only.ts';
import { blindRetryAfterTimeout } from './blind-retry-after-timeout.ts';
import { booleanLeaderFlag } from './boolean-leader-flag.ts';
import { cancelNonSupersedable } from './cancel-non-supersedable.ts';
import { clientClockExpiry } from './client-clock-expiry.ts';
import { effectWithoutLeaseConfirmation } from './effect-without-lease-confirmation.ts';
import { epochResetAfterRestore } from './epoch-reset-after-restore.ts';
import { holderNotStoppedOnRenewalFailure } from './holder-not-stopped-on-renewal-failure.ts';
import { keyOnlyForceRelease } from './key-only-force-release.ts';
import { leaseWithoutSchedulerEpoch } from './lease-without-scheduler-epoch.ts';
import type { Mutant } from './mutant.ts';
import { noFencingCheck } from './no-fencing-check.ts';
import { releaseBeforeReconcile } from './release-before-reconcile.ts';
import { removedLeaderKeepsRole } from './removed-leader-keeps-role.ts';
import { renewalWithoutEpochCheck } from './renewal-without-epoch-check.ts';
import { semaphoreOffByOne } from './semaphore-off-by-one.ts';
import { unknownTreatedAsFailure } from './unknown-treated-as-failure.ts';

export { mutantStoreFactory, type Mutant } from './mutant.ts';

export const MUTANTS: ReadonlyArray<Mutant> = Object.freeze([
  // Store-level: each wraps the correct store and changes one rule.
  noFencingCheck,
  clientClockExpiry,
  renewalWithoutEpochCheck,
  advisoryLockOnly,
  keyOnlyForceRelease,
  epochResetAfterRestore,
  semaphoreOffByOne,
  leaseWithoutSchedulerEpoch,
  // Controller-level: each flips one policy flag.
  holderNotStoppedOnRenewalFailure,
  blindRetryAfterTimeout,
  unknownTreatedAsFailure,
  releaseBeforeReconcile,
  cancelNonSupersedable,
  booleanLeaderFlag,
  effectWithoutLeaseConfirmation,
  removedLeaderKeepsRole,
]);

/** The mutant named `name` (with or without the `mutant:` adapter prefix), or undefined. */
export function findMutant(name: string): Mutant | undefined {
  const bare = name.startsWith('mutant:') ? name.slice('mutant:'.length) : name;
  return MUTANTS.find((mutant) => mutant.name === bare);
}
