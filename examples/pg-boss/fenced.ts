// pg-boss, fenced: the write lands only while its job is still active (boss-store.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { createBossStore } from './boss-store.ts';

const factory: StoreFactory = (options) => createBossStore({ ...options, fenced: true });
export default factory;
