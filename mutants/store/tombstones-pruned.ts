// tombstones-pruned — seed 000 §205–§206 ("Lease Tombstone: historical ownership record
// retained"), §259–§261 (lease history retention). The store keeps a scope's ownership record in
// the scope's own row, which the next owner overwrites: when a scope is taken again, the record of
// the owners before is gone, and so is the history incidents and audits need.

import { appendTo, logItems, type AppendLog } from '../../model/persistent.ts';
import type { Tombstone } from '../../model/outcomes.ts';
import { modelMutant } from './model-store.ts';

export const tombstonesPruned = modelMutant('tombstones-pruned', ['Acquire'], (state, command, now, reference) => {
  const result = reference(state, command, now);
  if (result.outcome.kind !== 'Acquired') return result;
  const all = logItems(result.state.tombstones);
  const kept = all.filter((t) => t.scope !== command.scope);
  if (kept.length === all.length) return result;
  const tombstones = kept.reduce<AppendLog<Tombstone> | null>((log, t) => appendTo(log, t), null);
  return { ...result, state: { ...result.state, tombstones } };
});
