// Placeholders of a command template filled from the reference state at the moment the step
// runs: the scope's live lease (or its last token when none is live), its holder, the aggregate's
// current version, and a job's current attempt token. The resolved command is what both stores
// receive and what a counterexample prints.

import type { Command } from '../../model/commands.ts';
import { lastToken } from '../../model/fencing-token.ts';
import { liveLease, type ModelState } from '../../model/state.ts';
import { resolveIds } from './resolve-ids.ts';
import { LIVE_EXPIRY, LIVE_HOLDER, LIVE_TOKEN, LIVE_VERSION, MOVED_EXPIRY } from './world.ts';

interface Owner {
  readonly token: number;
  readonly holder: string | null;
}

function ownerOf(state: ModelState, scope: string, now: number): Owner {
  const live = liveLease(state, scope, now);
  if (live !== null) return { token: live.token, holder: live.holder };
  // No live lease: the last row's holder (an expired owner) or nobody.
  const row = state.leases.get(scope);
  return { token: row?.token ?? lastToken(state, scope), holder: row?.holder ?? null };
}

function fillToken(value: number, owner: Owner): number {
  return value === LIVE_TOKEN ? owner.token : value;
}

function fillExpiry(value: number | undefined, live: number): number | undefined {
  if (value === LIVE_EXPIRY) return live;
  return value === MOVED_EXPIRY ? live - 1 : value;
}

function fillHolder(value: string, owner: Owner): string {
  return value === LIVE_HOLDER ? (owner.holder ?? 'A') : value;
}

/**
 * The token of the job's current attempt (its latest dispatch), which alone may finish the job or
 * give it back; 1, the first token a scope issues, for a job never submitted (it names no attempt).
 */
function attemptOf(state: ModelState, jobId: string): number {
  return state.jobs.get(jobId)?.attemptToken ?? 1;
}

export interface ResolveOptions {
  /**
   * Whether a job command's LIVE_TOKEN is its job's current attempt (default true). The check's
   * first step format left it as drawn, a token no store issues, so FinishJob and ReturnJob almost
   * never named the attempt; its paths replay with false (steps.ts).
   */
  readonly liveAttempts?: boolean;
}

export function resolveCommand(state: ModelState, template: Command, now: number, options: ResolveOptions = {}): Command {
  const command = resolveIds(state, template, now);
  switch (command.kind) {
    case 'FinishJob':
    case 'ReturnJob':
      return options.liveAttempts !== false && command.token === LIVE_TOKEN ? { ...command, token: attemptOf(state, command.jobId) } : command;
    case 'Renew': {
      const owner = ownerOf(state, command.scope, now);
      return { ...command, holder: fillHolder(command.holder, owner), expectedToken: fillToken(command.expectedToken, owner) };
    }
    case 'Release':
    case 'Handoff': {
      const owner = ownerOf(state, command.scope, now);
      return { ...command, holder: fillHolder(command.holder, owner), token: fillToken(command.token, owner) };
    }
    case 'ForceRelease': {
      const expiresAt = fillExpiry(command.expectedExpiresAt, liveLease(state, command.scope, now)?.expiresAt ?? now);
      return { ...command, expectedToken: fillToken(command.expectedToken, ownerOf(state, command.scope, now)), ...(expiresAt === undefined ? {} : { expectedExpiresAt: expiresAt }) };
    }
    case 'PlanIntent':
      return { ...command, token: fillToken(command.token, ownerOf(state, command.scope, now)) };
    case 'Mutate': {
      const owner = ownerOf(state, command.scope, now);
      const version = state.aggregates.get(command.scope)?.get(command.aggregate)?.version ?? 0;
      return {
        ...command,
        holder: fillHolder(command.holder, owner),
        token: fillToken(command.token, owner),
        expectedVersion: command.expectedVersion === LIVE_VERSION ? version : command.expectedVersion,
      };
    }
    default:
      return command;
  }
}
