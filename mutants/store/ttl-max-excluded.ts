// ttl-max-excluded — seed 000 §31 (leases are bounded). The store's ttl check reads
// `ttlMs > 0 && ttlMs < LEASE_TTL_MAX_MS` where the rule book says 1..LEASE_TTL_MAX_MS inclusive:
// a lease of exactly the maximum TTL is refused as out of bounds. Every TTL a workload or the
// check's small literals ask for is far below the maximum, so only a value at the rule's bound
// shows it.

import { LEASE_TTL_MAX_MS } from '../../model/constants.ts';
import { modelMutant } from './model-store.ts';

export const ttlMaxExcluded = modelMutant('ttl-max-excluded', ['Acquire', 'Renew', 'Handoff', 'AcquireAll'], (state, command, now, reference) =>
  // The bound itself is judged as one past it, in the rule's own order of checks (a guard first).
  reference(state, command.ttlMs === LEASE_TTL_MAX_MS ? { ...command, ttlMs: LEASE_TTL_MAX_MS + 1 } : command, now),
);
