// Fencing tokens (§24–§25, §203–§204, §271–§274): per scope, strictly increasing, never reused,
// never reset. Tokens issued under recovery epoch r lie above r * TOKEN_EPOCH_STRIDE, so a store
// restored from an older image that advanced its recovery epoch still never reissues a token.

import { assert } from './assert.ts';
import { TOKEN_EPOCH_STRIDE } from './constants.ts';
import { mapWith } from './persistent.ts';
import type { ModelState } from './state.ts';

export function lastToken(state: ModelState, scope: string): number {
  return state.lastTokens.get(scope) ?? 0;
}

/** The token the next issue on `scope` would return. */
export function nextToken(state: ModelState, scope: string): number {
  return Math.max(lastToken(state, scope), state.recoveryEpoch * TOKEN_EPOCH_STRIDE) + 1;
}

/** Issues the next token of `scope`: returns it and the state that remembers it. */
export function issueToken(state: ModelState, scope: string): { readonly state: ModelState; readonly token: number } {
  const previous = lastToken(state, scope);
  const token = nextToken(state, scope);
  assert(token > previous, 'an issued token is above every earlier token of its scope');
  assert(Number.isSafeInteger(token), 'a token is a safe integer');
  return { state: { ...state, lastTokens: mapWith(state.lastTokens, scope, token) }, token };
}
