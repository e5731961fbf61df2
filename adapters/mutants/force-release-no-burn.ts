// force-release-no-burn — seed 000 §203–§204, §290, and the rule book's ForceRelease: one token is
// burned (issued and never handed out), so the next owner's token is at least two above the
// removed one. This one only removes the lease: the counter stays where it was and the answer's
// `nextToken` is the removed token plus one.

import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

export const forceReleaseNoBurn: Mutant = {
  name: 'force-release-no-burn',
  bug: 'ForceRelease removes the lease without burning a token: the counter stays, nextToken is the removed token plus one',
  source: '000 §203–§204, §290',
  rule: 'ForceRelease burns one token: nextToken is at least the removed token plus two',
  invariants: ['force-release-audited'],
  scenarios: ['force-release-observed-epoch', 'force-release-stalled-holders'],
  store: () =>
    modelMutantStore('force-release-no-burn', ['ForceRelease'], (state, command, now, reference) => {
      const released = reference(state, command, now);
      if (released.outcome.kind !== 'ForceReleased') return released;
      return { state: { ...released.state, lastTokens: state.lastTokens }, outcome: { ...released.outcome, nextToken: released.outcome.nextToken - 1 } };
    }),
};
