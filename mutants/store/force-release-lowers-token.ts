// force-release-lowers-token — seed 000 §203–§204 ("New Epoch: Must increment", "Never reuse old
// epoch"), §24, §290. Force release hands the removed lease's token back instead of burning one:
// the scope's counter drops to just below it, so the next owner is issued the very token the
// force-released holder still carries.

import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const forceReleaseLowersToken = modelMutant('force-release-lowers-token', ['ForceRelease'], (state, command, now, reference) => {
  const released = reference(state, command, now);
  if (released.outcome.kind !== 'ForceReleased') return released;
  const token = released.outcome.tombstone.token;
  return { state: { ...released.state, lastTokens: mapWith(released.state.lastTokens, command.scope, token - 1) }, outcome: { ...released.outcome, nextToken: token } };
});
