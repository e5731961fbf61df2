// force-release-no-burn — seed 000 §203–§204, §290, and the rule book's ForceRelease: one token is
// burned (issued and never handed out), so the next owner's token is at least two above the
// removed one. This one only removes the lease: the counter stays where it was and the answer's
// `nextToken` is the removed token plus one.

import { modelMutant } from './model-store.ts';

export const forceReleaseNoBurn = modelMutant('force-release-no-burn', ['ForceRelease'], (state, command, now, reference) => {
  const released = reference(state, command, now);
  if (released.outcome.kind !== 'ForceReleased') return released;
  return { state: { ...released.state, lastTokens: state.lastTokens }, outcome: { ...released.outcome, nextToken: released.outcome.nextToken - 1 } };
});
