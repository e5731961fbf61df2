// advisory-lock, unfenced: the write goes through whenever the version matches (lock-store.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { createLockStore } from './lock-store.ts';

const factory: StoreFactory = (options) => createLockStore({ ...options, fenced: false });
export default factory;
