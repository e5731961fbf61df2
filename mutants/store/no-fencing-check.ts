// no-fencing-check — seed 000 §25–§30 ("Lock Alone Is Not Enough"), §281 stale holder test.
// A store that checks the aggregate version but never the fencing token: a holder that stalled
// past expiry (§25: "A wakes up") can still write once it presents the current version.

import { modelMutant } from './model-store.ts';
import { guarded, writeAggregate } from './rule-book-mutate.ts';

// The guard and the aggregate version are still checked (§67 without §26): only the lease
// lookup is missing, which is what a "version column only" implementation looks like.
export const noFencingCheck = modelMutant('no-fencing-check', ['Mutate'], (state, command) => guarded(state, command, writeAggregate));
