// feature-before-all-voters — seed 001 §152–§156 (a feature is used only after all required voters
// support it; staged capability negotiation, no flag day), §269. An upgraded Raft leader encodes its
// commands at its own binary's version while voters on the old binary are still in the cluster:
// they cannot read what was committed and stop following the coordination state.

import type { PolicyMutant } from './policy-mutant.ts';

export const featureBeforeAllVoters: PolicyMutant = {
  name: 'feature-before-all-voters',
  bug: 'an upgraded Raft leader uses a new command version before every voter runs a binary that reads it',
  source: '001 §152–§156, §269',
  rule: 'feature-activation: a command version is used only once every voter reads it',
  invariants: ['feature-activation'],
  scenarios: ['raft-rolling-upgrade'],
  policy: { featuresWaitForAllVoters: false },
};
