// force-release-lowers-token — seed 000 §203–§204 ("New Epoch: Must increment", "Never reuse old
// epoch"), §24, §290. Force release hands the removed lease's token back instead of burning one:
// the scope's counter drops to just below it, so the next owner is issued the very token the
// force-released holder still carries.

import { mapWith } from '../../model/persistent.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const forceReleaseLowersToken: Mutant = {
  name: 'force-release-lowers-token',
  bug: 'ForceRelease lowers the scope’s token counter below the removed token, so the next owner reuses it',
  source: '000 §24, §203–§204, §290',
  rule: 'Fencing tokens: nothing ever lowers lastToken (not force release); ForceRelease burns one token',
  invariants: ['fencing-monotonic', 'one-owner-per-epoch'],
  scenarios: ['force-release-observed-epoch'],
  store: () =>
    modelMutantStore('force-release-lowers-token', ['ForceRelease'], (state, command, now, reference) => {
      const released = reference(state, command, now);
      if (released.outcome.kind !== 'ForceReleased') return released;
      const token = released.outcome.tombstone.token;
      return { state: { ...released.state, lastTokens: mapWith(released.state.lastTokens, command.scope, token - 1) }, outcome: { ...released.outcome, nextToken: token } };
    }),
};
