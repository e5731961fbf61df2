// unlogged-leases — seed 000 §74 (a session lock disappears with its connection, so durable state is
// still needed) and §286 (losing a database session does not break durable ownership). The lease
// rows live in an unlogged table, which PostgreSQL empties in crash recovery: after a database
// crash every lease is gone before its expiry, with no tombstone, while the token counters (in a
// logged table) survive. The next Acquire takes a scope whose holder still believes, rightly by its
// TTL, that it owns it. Only a store told of the crash (`lifecycle`) can show it: the check's
// lifecycle steps and the simulator's database crashes do.

import { modelLifecycleMutant } from './model-store.ts';

export const unloggedLeases = modelLifecycleMutant('unlogged-leases', (state, event) => (event.kind === 'database-crash' ? { ...state, leases: new Map() } : state));
