// advisory-lock-only — seed 000 §72–§74 ("Advisory Locks: Never sole durable truth"; "Session
// Lock Failure: connection loss releases lock"), §24 and §280 (a new owner gets a higher token).
// Exclusivity comes from a session lock that has nothing durable behind it: no per-scope counter
// survives the lock being free, so the "token" is the lock's generation within its current
// holding and every owner of a free scope gets token 1 again.

import type { Command } from '../../model/commands.ts';
import { mapWithout } from '../../model/persistent.ts';
import { liveLease, type ModelState } from '../../model/state.ts';
import { modelMutant } from './model-store.ts';

/** The state as a session lock sees it: free scopes have no token history. */
function forgetFreeScopes(state: ModelState, scopes: ReadonlyArray<string>, now: number): ModelState {
  let lastTokens = state.lastTokens;
  for (const scope of scopes) if (liveLease(state, scope, now) === null) lastTokens = mapWithout(lastTokens, scope);
  return lastTokens === state.lastTokens ? state : { ...state, lastTokens };
}

function scopesOf(command: Extract<Command, { kind: 'Acquire' | 'AcquireAll' }>): ReadonlyArray<string> {
  return command.kind === 'Acquire' ? [command.scope] : command.scopes;
}

export const advisoryLockOnly = modelMutant('advisory-lock-only', ['Acquire', 'AcquireAll'], (state, command, now, reference) =>
  reference(forgetFreeScopes(state, scopesOf(command), now), command, now));
