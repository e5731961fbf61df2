// The lock library with its correct sweeper, as a `--adapter` module (lock-store.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { openLockStore } from './lock-store.ts';

const factory: StoreFactory = (options) => openLockStore(options, 'expired');
export default factory;
