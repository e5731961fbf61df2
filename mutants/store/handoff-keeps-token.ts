// handoff-keeps-token — seed 000 §110–§114 ("Handoff: Atomic transaction + epoch increment",
// "Stale Old Holder: Fenced"), §24. Ownership is handed to the new holder under the old holder's
// token: no new epoch, so the old holder's late writes carry a token that is current again.

import { mapWith } from '../../model/persistent.ts';
import { modelMutant } from './model-store.ts';

export const handoffKeepsToken = modelMutant('handoff-keeps-token', ['Handoff'], (state, command, now, reference) => {
  const handed = reference(state, command, now);
  if (handed.outcome.kind !== 'HandedOff') return handed;
  const lease = { ...handed.outcome.lease, token: command.token };
  // The counter stays where it was before the handoff: no epoch was spent.
  return {
    state: { ...handed.state, leases: mapWith(handed.state.leases, command.scope, lease), lastTokens: state.lastTokens },
    outcome: { kind: 'HandedOff', lease },
  };
});
