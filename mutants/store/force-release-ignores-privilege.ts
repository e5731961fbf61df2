// force-release-ignores-privilege — seed 000 §200–§206 (force release is a high-risk operation,
// privileged and audited), §290. The privilege is checked where the operator's request comes in
// (an admin endpoint), and the store's own command takes `privileged` on trust and never reads it:
// any caller that reaches the store — a script run without the flag, a client with the store's
// credentials — removes a live lease from its holder. Correct controllers always send the flag,
// so only a request that leaves it out shows the bug: the unprivileged operator script of
// `retried-and-late-requests` (sim/misbehaving-client.ts), which force-releases the lease it saw.

import { modelMutant } from './model-store.ts';

export const forceReleaseIgnoresPrivilege = modelMutant('force-release-ignores-privilege', ['ForceRelease'], (state, command, now, reference) =>
  // THE BUG: the command is judged as if it were privileged, whatever it says.
  command.privileged ? reference(state, command, now) : reference(state, { ...command, privileged: true }, now),
);
