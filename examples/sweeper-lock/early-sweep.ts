// The lock library with its sweeper bug: a renewed lock is deleted at the deadline of its first grant (lock-library.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { openLockStore } from './lock-store.ts';

const factory: StoreFactory = (options) => openLockStore(options, 'first-deadline');
export default factory;
