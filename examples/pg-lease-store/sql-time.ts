// The store of lease-store.ts reading store time in SQL (`now()`, after the scope's lock) instead
// of from `options.time`, as a store whose expiry lives in SQL does. Under `--interleave` the
// testbed's database time (docs/ARCHITECTURE.md "Controlled interleaving") makes `now()` the run's virtual
// time, so this store decides exactly as lease-store.ts does: same outcomes, same trace hash.

import type { StoreFactory } from '../../adapters/port.ts';
import { createLeaseStore } from './lease-store.ts';

const factory: StoreFactory = (options) => createLeaseStore({ ...options, sqlTime: true });
export default factory;
