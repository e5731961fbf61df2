// no-fencing-check — seed 000 §25–§30 ("Lock Alone Is Not Enough"), §281 stale holder test.
// A store that checks the aggregate version but never the fencing token: a holder that stalled
// past expiry (§25: "A wakes up") can still write once it presents the current version.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';
import { guarded, writeAggregate } from './rule-book-mutate.ts';

export const noFencingCheck: Mutant = {
  name: 'no-fencing-check',
  bug: 'Mutate ignores the fencing token and holder: any write with the current aggregate version is accepted',
  source: '000 §25–§30, §281',
  rule: 'Protected mutation: no live lease with that token and holder → StaleFence',
  invariants: ['one-owner-per-epoch', 'lease-exclusive'],
  scenarios: ['stale-holder', 'paused-holder-expiry', 'split-brain-partition', 'standard-mix'],
  // The guard and the aggregate version are still checked (§67 without §26): only the lease
  // lookup is missing, which is what a "version column only" implementation looks like.
  store: () => modelMutantStore('no-fencing-check', ['Mutate'], (state, command) => guarded(state, command, writeAggregate)),
};
