// An answer seen through the simulator's translation (sim/fence-ids.ts) with the store's own
// fences put back, for what must not depend on the translation's ids: those follow the order in
// which fences were first seen, so the same schedule run after others, or alone in a replay,
// would read differently. A store without fences has none to put back: its fence fields go.

import { OUTCOME_FENCES, type FenceIds, type FencingKind } from '../../sim/fence-ids.ts';

export function withOwnFences(value: unknown, ids: FenceIds | null, fencing: FencingKind): unknown {
  if (ids === null) return value;
  if (Array.isArray(value)) return value.map((item) => withOwnFences(item, ids, fencing));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (!OUTCOME_FENCES.has(key) && key !== 'nextToken') out[key] = withOwnFences(field, ids, fencing);
    else if (fencing === 'opaque') out[key] = typeof field === 'number' ? (ids.fence(field) ?? field) : field;
  }
  return out;
}
