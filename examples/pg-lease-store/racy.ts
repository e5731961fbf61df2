// The lease store of lease-store.ts with one race: Acquire reads the scope's token counter
// without locking it. Two acquires of a free scope that run at once both see it free and the
// same counter, and both are granted the same token. Every serial run passes it;
// `--interleave` catches it.

import type { StoreFactory } from '../../adapters/port.ts';
import { createLeaseStore } from './lease-store.ts';

const factory: StoreFactory = (options) => createLeaseStore({ ...options, race: true });
export default factory;
