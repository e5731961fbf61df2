// Force release (§200–§206, §217, §220–§222, §248, §290): only with the privilege, a reason, and
// the exact epoch of the live lease; it always leaves an audited tombstone and burns one token,
// so the next owner's token is strictly above anything the stale holder could still present.

import { assert } from './assert.ts';
import type { ForceReleaseCommand } from './commands.ts';
import { issueToken, nextToken } from './fencing-token.ts';
import type { ForceReleaseResult } from './outcomes.ts';
import { mapWithout } from './persistent.ts';
import { liveLease, type ModelState, type Transition } from './state.ts';
import { withTombstone } from './tombstone.ts';

export function forceRelease(state: ModelState, command: ForceReleaseCommand, now: number): Transition<ForceReleaseResult> {
  if (!command.privileged) return { state, outcome: { kind: 'Denied', reason: 'not-privileged' } };
  if (command.reason.trim() === '') return { state, outcome: { kind: 'Denied', reason: 'reason-required' } };
  const live = liveLease(state, command.scope, now);
  if (live === null || live.token !== command.expectedToken || !observedRevision(live.expiresAt, command)) {
    return { state, outcome: { kind: 'Stale', currentToken: live?.token ?? null } };
  }
  const ended = withTombstone(state, live, 'force-released', now, { actor: command.actor, reason: command.reason });
  const burned = issueToken(ended.state, command.scope);
  const next: ModelState = { ...burned.state, leases: mapWithout(burned.state.leases, command.scope) };
  const following = nextToken(next, command.scope);
  assert(following > burned.token, 'the next token is above the burned one');
  assert(burned.token > live.token, 'the burned token is above the released one');
  return { state: next, outcome: { kind: 'ForceReleased', tombstone: ended.tombstone, nextToken: following } };
}

/** A renewal since the actor's observation moves the expiry: the lease judged is no longer the one there. */
export function observedRevision(expiresAt: number, command: ForceReleaseCommand): boolean {
  return command.expectedExpiresAt === undefined || command.expectedExpiresAt === expiresAt;
}
