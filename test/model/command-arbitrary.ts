// fast-check arbitraries for random command sequences over a small world (few scopes, holders
// and ids), so that collisions — the interesting cases — are frequent.

import { fc } from '@fast-check/vitest';
import type { Command } from '../../model/commands.ts';
import { TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';
import { EFFECT_STATES, RETRY_SAFETIES } from '../../model/effect-state.ts';
import { lastToken } from '../../model/fencing-token.ts';
import { liveLease, type ModelState } from '../../model/state.ts';
import { scope } from './model-driver.ts';

export const SCOPES: ReadonlyArray<string> = [scope('prod'), scope('staging'), scope('pixel', 'Device')];
export const CAPACITY_SCOPE = scope('signing', 'Custom');
export const CAPACITY = 3;
const HOLDERS = ['A', 'B', 'C'] as const;
const IDS = ['1', '2', '3'] as const;
/** Long enough that no idempotency record expires inside a generated run. */
export const RETENTION_MS = 2_000_000_000;

const scopeArb = fc.constantFrom(...SCOPES);
const holderArb = fc.constantFrom(...HOLDERS);
const idArb = fc.constantFrom(...IDS);
const ttlArb = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 8_000 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 600_001, 1.5) });
/**
 * A token (or expected version) placeholder: at execution `resolveCommand` replaces it (and the
 * holder) by the scope's live lease (or the aggregate's version), so that commands of the current owner occur often enough to matter.
 */
export const LIVE_TOKEN = -1;
// Otherwise tokens near the start of each recovery epoch's range: mostly stale ones.
const tokenArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(LIVE_TOKEN) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }), fc.integer({ min: 0, max: 6 }))
      .map(([epoch, offset]) => epoch * TOKEN_EPOCH_STRIDE + offset),
  },
);
const guardArb = fc.option(fc.record({ role: fc.constantFrom('scheduler', 'site-authority'), epoch: fc.integer({ min: 0, max: 3 }) }), { nil: undefined });
const keyRefArb = fc.record({
  tenant: fc.constant('acme'),
  operation: fc.constant('publish'),
  subject: fc.constantFrom('s', 't'),
  key: fc.constant('k'),
  digest: fc.constantFrom('d1', 'd2'),
});
const storedOutcomeArb = fc.oneof(
  fc.record({ kind: fc.constant('Succeeded' as const), response: fc.constant('ok') }),
  fc.record({ kind: fc.constant('FailedTerminal' as const), error: fc.constant('no') }),
  fc.constant({ kind: 'Unknown' as const }),
);

function withOptional<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('Acquire' as const), scope: scopeArb, holder: holderArb, ttlMs: ttlArb, waiterId: fc.option(idArb, { nil: undefined, freq: 2 }), guard: guardArb }).map(withOptional) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Renew' as const), scope: scopeArb, holder: holderArb, expectedToken: tokenArb, ttlMs: ttlArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Release' as const), scope: scopeArb, holder: holderArb, token: tokenArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('Handoff' as const), scope: scopeArb, holder: holderArb, token: tokenArb, newHolder: holderArb, ttlMs: ttlArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ForceRelease' as const), scope: scopeArb, expectedToken: tokenArb, expectedExpiresAt: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined, freq: 2 }), actor: fc.constant('ops'), reason: fc.constantFrom('', 'verified'), privileged: fc.boolean() }).map(withOptional) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('Enqueue' as const), scope: scopeArb, waiterId: idArb, holder: holderArb, priority: fc.integer({ min: -2, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('CancelWait' as const), scope: scopeArb, waiterId: idArb }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('Mutate' as const), scope: scopeArb, aggregate: fc.constantFrom('x', 'y'), holder: holderArb, token: tokenArb, expectedVersion: fc.oneof(fc.constant(LIVE_TOKEN), fc.integer({ min: 0, max: 3 })), guard: guardArb }).map(withOptional) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('AcquirePermit' as const), scope: fc.constant(CAPACITY_SCOPE), permitId: idArb, holder: holderArb, units: fc.integer({ min: 0, max: 3 }), ttlMs: ttlArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ReleasePermit' as const), scope: fc.constant(CAPACITY_SCOPE), permitId: idArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('Reserve' as const), scope: fc.constant(CAPACITY_SCOPE), reservationId: fc.string({ minLength: 1, maxLength: 2, unit: fc.constantFrom('r', 's') }), owner: holderArb, units: fc.integer({ min: 1, max: 2 }), ttlMs: ttlArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('ActivateReservation' as const, 'ConsumeReservation' as const, 'ReleaseReservation' as const, 'FailReservation' as const), reservationId: fc.constantFrom('r', 's', 'rs') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('AcquireAll' as const), scopes: fc.subarray([...SCOPES], { minLength: 0 }), holder: holderArb, ttlMs: ttlArb }) },
  { weight: 3, arbitrary: fc.tuple(keyRefArb, fc.boolean()).map(([ref, retryAfterTerminal]) => ({ kind: 'IdempotencyBegin' as const, ...ref, retentionMs: RETENTION_MS, retryAfterTerminal })) },
  { weight: 3, arbitrary: fc.tuple(keyRefArb, storedOutcomeArb).map(([ref, outcome]) => ({ kind: 'IdempotencyComplete' as const, ...ref, outcome })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('PlanIntent' as const), intentId: idArb, scope: scopeArb, token: tokenArb, operation: fc.constant('rollout'), retrySafety: fc.constantFrom(...RETRY_SAFETIES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('TransitionIntent' as const), intentId: idArb, to: fc.constantFrom(...EFFECT_STATES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRecoveryEpoch' as const), atLeast: fc.integer({ min: 0, max: 3 }), blockScopes: fc.subarray([...SCOPES]) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ReconcileScope' as const), scope: scopeArb, actor: fc.constant('ops') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role: fc.constantFrom('scheduler', 'site-authority'), epoch: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'Inspect' as const }) },
);

/** One step of a run: wait `advanceMs`, then issue `command`. */
export interface TimedCommand {
  readonly advanceMs: number;
  readonly command: Command;
}

export const runArb: fc.Arbitrary<ReadonlyArray<TimedCommand>> = fc.array(
  fc.record({ advanceMs: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.integer({ min: 1, max: 500 }) }, { weight: 1, arbitrary: fc.integer({ min: 501, max: 5_000 }) }), command: commandArb }),
  { minLength: 5, maxLength: 80 },
);

/** Every run starts by defining the one capacity scope, so capacity is fixed for the whole run. */
export const SETUP: ReadonlyArray<Command> = [{ kind: 'DefineCapacity', scope: CAPACITY_SCOPE, capacity: CAPACITY }];

/** Replaces the LIVE_TOKEN placeholder by the live lease of the command's scope, if there is one. */
export function resolveCommand(state: ModelState, command: Command, now: number): Command {
  if (!('scope' in command)) return command;
  const live = liveLease(state, command.scope, now);
  const token = live?.token ?? lastToken(state, command.scope);
  switch (command.kind) {
    case 'Renew':
      return command.expectedToken === LIVE_TOKEN ? { ...command, expectedToken: token, holder: live?.holder ?? command.holder } : command;
    case 'ForceRelease':
      return command.expectedToken === LIVE_TOKEN ? { ...command, expectedToken: token } : command;
    case 'Mutate': {
      const version = command.expectedVersion === LIVE_TOKEN ? (state.aggregates.get(command.scope)?.get(command.aggregate)?.version ?? 0) : command.expectedVersion;
      const owned = command.token === LIVE_TOKEN ? { token, holder: live?.holder ?? command.holder } : {};
      return { ...command, ...owned, expectedVersion: version };
    }
    case 'Release':
    case 'Handoff':
      return command.token === LIVE_TOKEN ? { ...command, token, holder: live?.holder ?? command.holder } : command;
    case 'PlanIntent':
      return command.token === LIVE_TOKEN ? { ...command, token } : command;
    default:
      return command;
  }
}
