// pg-boss, unfenced: the write lands whenever the version matches (boss-store.ts).
import type { StoreFactory } from '../../adapters/port.ts';
import { createBossStore } from './boss-store.ts';

const factory: StoreFactory = (options) => createBossStore({ ...options, fenced: false });
export default factory;
