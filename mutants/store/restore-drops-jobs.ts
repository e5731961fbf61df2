// restore-drops-jobs — seed 001 §93, §340 (DR recovery preserves business state), 000 §272–§276.
// The store's image leaves the jobs table out (a backup of the lease tables only), so a failover or
// restore comes back with no jobs at all: every job accepted before the image is gone and never
// runs.

import { modelImageMutant } from './model-store.ts';

export const restoreDropsJobs = modelImageMutant('restore-drops-jobs', (state) => ({ ...state, jobs: new Map() }));
