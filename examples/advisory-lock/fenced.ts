// advisory-lock, fenced: the write checks its token and its lock's session (lock-store.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { createLockStore } from './lock-store.ts';

const factory: StoreFactory = (options) => createLockStore({ ...options, fenced: true });
export default factory;
