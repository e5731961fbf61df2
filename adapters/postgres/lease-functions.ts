// The one decider of Acquire, Renew, Release and Mutate in PostgreSQL: the PL/pgSQL functions of
// schema migration 2 (migrations/002/). This file is how a call reaches them: the statement and its
// arguments, and the typed outcome built from the JSON a function returns. The functions run in
// two ways, and decide alike in both because they are the same code:
//   - alone, as one autocommit statement (fast-path.ts), which logs a writing outcome for the
//     calling connection so that a lost reply can be resolved;
//   - inside a transaction of the multi-statement path (`callInTransaction`), as one statement
//     among others (DispatchJob creates its lease this way, and a store opened with
//     `fastPath: false` runs every lease command so). The connection id is then null and nothing
//     is logged: the transaction's own id resolves a lost reply (transaction.ts).
// Argument checks that need no state (ttl bounds, id rules) are made here, in the rule book's
// order, and passed in as `p_reject`, so that a guard still runs first.

import type { AcquireCommand, Command, MutateCommand, ReleaseCommand, RenewCommand } from '../../model/commands.ts';
import type { AcquireResult, Lease, MutateResult, Outcome, ReleaseResult, RenewResult } from '../../model/outcomes.ts';
import { isValidId, isValidTtl } from '../../model/validation.ts';
import { decodeText, encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

export type FastCommand = AcquireCommand | RenewCommand | ReleaseCommand | MutateCommand;

export function isFastCommand(command: Command): command is FastCommand {
  return command.kind === 'Acquire' || command.kind === 'Renew' || command.kind === 'Release' || command.kind === 'Mutate';
}

const ACQUIRE_SQL = 'SELECT testbed_acquire($1::uuid, $2::uuid, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::float8, $9::text, $10::bigint) AS o';
const RENEW_SQL = 'SELECT testbed_renew($1::uuid, $2::uuid, $3::text, $4::text, $5::float8, $6::bigint, $7::text, $8::bigint) AS o';
const RELEASE_SQL = 'SELECT testbed_release($1::uuid, $2::uuid, $3::text, $4::text, $5::float8, $6::bigint) AS o';
const MUTATE_SQL =
  'SELECT testbed_mutate($1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::float8, $7::float8, $8::text, $9::float8, $10::bigint) AS o';

export type Row = Record<string, unknown>;

/** An epoch that is not a finite number is fenced without a write, as a negative one is: the functions take it as -1. */
const guardEpoch = (epoch: number): number => (Number.isFinite(epoch) ? epoch : -1);

/** The statement and its arguments after (conn, request): the command's fields, then store time. */
export function callOf(command: FastCommand, now: number | null): { text: string; args: unknown[] } {
  switch (command.kind) {
    case 'Acquire': {
      const ttlOk = isValidTtl(command.ttlMs);
      const idsOk =
        isValidId(command.scope) && isValidId(command.holder) && (command.waiterId === undefined || isValidId(command.waiterId));
      const reject = !ttlOk ? 'ttl-out-of-bounds' : !idsOk ? 'invalid-argument' : null;
      const text = (value: unknown) => (typeof value === 'string' ? encodeText(value) : null);
      return {
        text: ACQUIRE_SQL,
        args: [
          reject === null ? encodeText(command.scope) : text(command.scope),
          reject === null ? encodeText(command.holder) : text(command.holder),
          ttlOk ? command.ttlMs : null,
          command.waiterId === undefined ? null : text(command.waiterId),
          command.guard === undefined ? null : encodeText(command.guard.role),
          command.guard === undefined ? null : guardEpoch(command.guard.epoch),
          reject,
          now,
        ],
      };
    }
    case 'Renew': {
      const ttlOk = isValidTtl(command.ttlMs);
      return {
        text: RENEW_SQL,
        args: [
          encodeText(command.scope),
          encodeText(command.holder),
          command.expectedToken,
          ttlOk ? command.ttlMs : null,
          ttlOk ? null : 'ttl-out-of-bounds',
          now,
        ],
      };
    }
    case 'Release':
      return { text: RELEASE_SQL, args: [encodeText(command.scope), encodeText(command.holder), command.token, now] };
    case 'Mutate':
      return {
        text: MUTATE_SQL,
        args: [
          encodeText(command.scope),
          encodeText(command.aggregate),
          encodeText(command.holder),
          command.token,
          command.expectedVersion,
          command.guard === undefined ? null : encodeText(command.guard.role),
          command.guard === undefined ? null : guardEpoch(command.guard.epoch),
          now,
        ],
      };
  }
}

const n = (value: unknown): number => value as number;
const tokenOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : n(value));

/** The typed outcome, in the shape and key order of the reference model's (model/). */
export function outcomeOf(command: FastCommand, o: Row): Outcome {
  const kind = o.kind as string;
  if (kind === 'Fenced' && (command.kind === 'Acquire' || command.kind === 'Mutate')) {
    return { kind: 'Fenced', role: command.guard!.role, currentEpoch: n(o.currentEpoch) };
  }
  if (kind === 'Rejected') return { kind: 'Rejected', reason: o.reason } as Outcome;
  if (kind === 'Stale') return { kind: 'Stale', currentToken: tokenOrNull(o.currentToken) };
  const lease = (scope: string, holder: string): Lease => ({ scope, holder, token: n(o.token), acquiredAt: n(o.acquiredAt), expiresAt: n(o.expiresAt) });
  switch (command.kind) {
    case 'Acquire':
      if (kind === 'Busy') return { kind: 'Busy', holder: decodeText(o.holder as string), token: n(o.token), expiresAt: n(o.expiresAt) } satisfies AcquireResult;
      if (kind === 'Acquired') return { kind: 'Acquired', lease: lease(command.scope, command.holder) } satisfies AcquireResult;
      break;
    case 'Renew':
      if (kind === 'Expired') return { kind: 'Expired' } satisfies RenewResult;
      if (kind === 'Renewed') return { kind: 'Renewed', lease: lease(command.scope, command.holder) } satisfies RenewResult;
      break;
    case 'Release':
      if (kind === 'Released') return { kind: 'Released', token: n(o.token) } satisfies ReleaseResult;
      break;
    case 'Mutate':
      if (kind === 'StaleFence') return { kind: 'StaleFence', currentToken: tokenOrNull(o.currentToken) } satisfies MutateResult;
      if (kind === 'StaleVersion') return { kind: 'StaleVersion', currentVersion: n(o.currentVersion) } satisfies MutateResult;
      if (kind === 'Accepted') return { kind: 'Accepted', version: n(o.version), token: command.token } satisfies MutateResult;
      break;
  }
  throw new Error(`unexpected ${command.kind} outcome ${JSON.stringify(o)}`);
}

/** One of the four commands as one statement of an open transaction: nothing is logged. */
export async function callInTransaction(tx: Tx, command: FastCommand): Promise<Outcome> {
  const call = callOf(command, tx.virtualNow);
  const [row] = await tx.query<{ o: Row }>(call.text, [null, null, ...call.args]);
  return outcomeOf(command, row!.o);
}
