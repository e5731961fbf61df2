// advisory-lock-only — seed 000 §72–§74 ("Advisory Locks: Never sole durable truth"; "Session
// Lock Failure: connection loss releases lock"), §24 and §280 (a new owner gets a higher token).
// Exclusivity comes from a session lock that has nothing durable behind it: no per-scope counter
// survives the lock being free, so the "token" is the lock's generation within its current
// holding and every owner of a free scope gets token 1 again.

import type { Command } from '../../model/commands.ts';
import { mapWithout } from '../../model/persistent.ts';
import { liveLease, type ModelState } from '../../model/state.ts';
import type { Mutant } from './mutant.ts';
import { modelMutantStore } from './model-store.ts';

/** The state as a session lock sees it: free scopes have no token history. */
function forgetFreeScopes(state: ModelState, scopes: ReadonlyArray<string>, now: number): ModelState {
  let lastTokens = state.lastTokens;
  for (const scope of scopes) if (liveLease(state, scope, now) === null) lastTokens = mapWithout(lastTokens, scope);
  return lastTokens === state.lastTokens ? state : { ...state, lastTokens };
}

function scopesOf(command: Extract<Command, { kind: 'Acquire' | 'AcquireAll' }>): ReadonlyArray<string> {
  return command.kind === 'Acquire' ? [command.scope] : command.scopes;
}

export const advisoryLockOnly: Mutant = {
  name: 'advisory-lock-only',
  bug: 'no durable per-scope token counter: every owner of a free scope gets token 1, as with a session advisory lock',
  source: '000 §24, §72–§74, §280',
  rule: 'Fencing tokens: issuing sets lastToken := max(lastToken, recoveryEpoch × stride) + 1; nothing lowers it',
  invariants: ['one-owner-per-epoch', 'fencing-monotonic'],
  scenarios: ['stale-holder', 'paused-holder-expiry', 'standard-mix', 'release-coordinator-epoch'],
  store: () =>
    modelMutantStore('advisory-lock-only', ['Acquire', 'AcquireAll'], (state, command, now, reference) =>
      reference(forgetFreeScopes(state, scopesOf(command), now), command, now),
    ),
};
