// Idempotency records, effect intents, recovery and role epochs in SQL (seed 000 §43–§65,
// §228–§240, §269–§276; seed 001 §92–§95). Each record is locked by its own row
// (SELECT ... FOR UPDATE, or INSERT ... ON CONFLICT which waits for a racing insert).

import type {
  AdvanceRecoveryEpochCommand,
  AdvanceRoleEpochCommand,
  IdempotencyBeginCommand,
  IdempotencyCompleteCommand,
  IdempotencyKeyRef,
  PlanIntentCommand,
  ReconcileScopeCommand,
  TransitionIntentCommand,
} from '../../model/commands.ts';
import type { EffectState, RetrySafety } from '../../model/effect-state.ts';
import type { StoredOutcome } from '../../model/idempotency-outcome.ts';
import type {
  AdvanceRecoveryEpochResult,
  AdvanceRoleEpochResult,
  EffectIntent,
  IdempotencyBeginResult,
  IdempotencyCompleteResult,
  IdempotencyRecord,
  PlanIntentResult,
  ReconcileScopeResult,
  TransitionIntentResult,
} from '../../model/outcomes.ts';
import { INTENT_TRANSITIONS } from '../../model/effect-intent.ts';
import { isValidBegin } from '../../model/idempotency.ts';
import { decodeText, encodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

// ---- idempotency ----------------------------------------------------------------------------

export interface IdempotencyRow {
  digest: string;
  state: IdempotencyRecord['state'];
  outcome_json: string | null;
  expires_at: number;
}

export function keyParams(ref: IdempotencyKeyRef): string[] {
  return [encodeText(ref.tenant), encodeText(ref.operation), encodeText(ref.subject), encodeText(ref.key)];
}

async function lockRecord(tx: Tx, ref: IdempotencyKeyRef): Promise<IdempotencyRow | null> {
  const rows = await tx.query<IdempotencyRow>(
    `SELECT digest, state, outcome_json, expires_at FROM idempotency
      WHERE tenant = $1 AND operation = $2 AND subject = $3 AND key = $4 FOR UPDATE`,
    keyParams(ref),
  );
  return rows[0] ?? null;
}

function storedOutcome(row: IdempotencyRow): StoredOutcome {
  return JSON.parse(row.outcome_json!) as StoredOutcome;
}

/** Write a fresh InProgress record; false when a racing transaction inserted the key first. */
async function startRecord(tx: Tx, command: IdempotencyBeginCommand, now: number, replace: boolean): Promise<boolean> {
  const params = [...keyParams(command), encodeText(command.digest), now, now + command.retentionMs];
  if (replace) {
    await tx.query(
      `UPDATE idempotency SET digest = $5, state = 'InProgress', outcome_json = NULL, created_at = $6, expires_at = $7
        WHERE tenant = $1 AND operation = $2 AND subject = $3 AND key = $4`,
      params,
    );
    return true;
  }
  const inserted = await tx.query(
    `INSERT INTO idempotency (tenant, operation, subject, key, digest, state, outcome_json, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, 'InProgress', NULL, $6, $7)
     ON CONFLICT ON CONSTRAINT idempotency_identity DO NOTHING RETURNING 1 AS inserted`,
    params,
  );
  return inserted.length > 0;
}

export async function idempotencyBegin(tx: Tx, command: IdempotencyBeginCommand): Promise<IdempotencyBeginResult> {
  if (!isValidBegin(command)) return { kind: 'Rejected', reason: 'invalid-argument' };
  for (;;) {
    const row = await lockRecord(tx, command);
    const now = await tx.now();
    if (row === null || now >= row.expires_at) {
      // An expired record is absent (§54). If a racing insert won, look again: it is locked now.
      if (await startRecord(tx, command, now, row !== null)) return { kind: 'New' };
      continue;
    }
    const answer = answerExisting(row, command);
    if (answer !== 'start-again') return answer;
    await startRecord(tx, command, now, true);
    return { kind: 'New' };
  }
}

/**
 * What IdempotencyBegin answers when the key has a live record: a conflict, the state it is in,
 * the stored outcome, or 'start-again' (a terminal failure the request may retry: the caller
 * starts a new operation in the record's place).
 */
export function answerExisting(row: IdempotencyRow, command: IdempotencyBeginCommand): IdempotencyBeginResult | 'start-again' {
  const existing = decodeText(row.digest);
  if (existing !== command.digest) return { kind: 'Conflict', existingDigest: existing };
  switch (row.state) {
    case 'InProgress':
      return { kind: 'InProgress' };
    case 'Unknown':
      // Never turned into a new operation (§53): only a completion resolves it.
      return { kind: 'Unknown' };
    case 'FailedTerminal':
      return command.retryAfterTerminal ? 'start-again' : { kind: 'Replay', outcome: storedOutcome(row) };
    case 'Succeeded':
      return { kind: 'Replay', outcome: storedOutcome(row) };
  }
}

export async function idempotencyComplete(tx: Tx, command: IdempotencyCompleteCommand): Promise<IdempotencyCompleteResult> {
  const row = await lockRecord(tx, command);
  const now = await tx.now();
  if (row === null || now >= row.expires_at) return { kind: 'NotFound' };
  const existing = decodeText(row.digest);
  if (existing !== command.digest) return { kind: 'Conflict', existingDigest: existing };
  if (row.state === 'Succeeded' || row.state === 'FailedTerminal') return { kind: 'AlreadyFinal', outcome: storedOutcome(row) };
  await tx.query(
    `UPDATE idempotency SET state = $5, outcome_json = $6
      WHERE tenant = $1 AND operation = $2 AND subject = $3 AND key = $4`,
    [...keyParams(command), command.outcome.kind, JSON.stringify(command.outcome)],
  );
  return { kind: 'Recorded' };
}

// ---- effect intents -------------------------------------------------------------------------

export interface IntentRow {
  intent_id: string;
  scope: string;
  token: number;
  operation: string;
  retry_safety: RetrySafety;
  state: EffectState;
}

export function intentOf(row: IntentRow): EffectIntent {
  return {
    intentId: decodeText(row.intent_id),
    scope: decodeText(row.scope),
    token: row.token,
    operation: decodeText(row.operation),
    retrySafety: row.retry_safety,
    state: row.state,
  };
}

export async function planIntent(tx: Tx, command: PlanIntentCommand): Promise<PlanIntentResult> {
  const id = encodeText(command.intentId);
  const inserted = await tx.query<IntentRow>(
    `INSERT INTO effect_intent (intent_id, scope, token, operation, retry_safety, state)
     VALUES ($1, $2, $3, $4, $5, 'Planned') ON CONFLICT (intent_id) DO NOTHING RETURNING *`,
    [id, encodeText(command.scope), command.token, encodeText(command.operation), command.retrySafety],
  );
  if (inserted.length > 0) return { kind: 'Planned', intent: intentOf(inserted[0]!) };
  const [existing] = await tx.query<IntentRow>('SELECT * FROM effect_intent WHERE intent_id = $1', [id]);
  return { kind: 'Duplicate', intent: intentOf(existing!) };
}

export async function transitionIntent(tx: Tx, command: TransitionIntentCommand): Promise<TransitionIntentResult> {
  const id = encodeText(command.intentId);
  const [row] = await tx.query<IntentRow>('SELECT * FROM effect_intent WHERE intent_id = $1 FOR UPDATE', [id]);
  if (row === undefined) return { kind: 'NotFound' };
  const intent = intentOf(row);
  if (!INTENT_TRANSITIONS[intent.state].includes(command.to)) return { kind: 'InvalidTransition', from: intent.state, to: command.to };
  await tx.query('UPDATE effect_intent SET state = $2 WHERE intent_id = $1', [id, command.to]);
  return { kind: 'Transitioned', intent: { ...intent, state: command.to } };
}

// ---- recovery and roles ---------------------------------------------------------------------

export async function advanceRecoveryEpoch(tx: Tx, command: AdvanceRecoveryEpochCommand): Promise<AdvanceRecoveryEpochResult> {
  // This transaction holds the recovery gate exclusively (store.ts): every other writing command
  // has finished or waits, so no lease is issued under the old epoch after this one commits.
  const [row] = await tx.query<{ epoch: number }>('SELECT epoch FROM recovery_epoch FOR UPDATE');
  const now = await tx.now();
  const recoveryEpoch = Math.max(row!.epoch + 1, command.atLeast);
  const live = await tx.query<{ scope: string; holder: string; token: number }>(
    'SELECT scope, holder, token FROM lease WHERE expires_at > $1',
    [now],
  );
  // Tombstones in canonical scope order (UTF-16 code units), as the reference appends them.
  const ordered = live.map((l) => ({ ...l, decoded: decodeText(l.scope) })).sort((a, b) => (a.decoded < b.decoded ? -1 : a.decoded > b.decoded ? 1 : 0));
  await tx.query(
    `WITH d AS (DELETE FROM lease WHERE scope = ANY($1::text[]))
     INSERT INTO tombstone (seq, scope, holder, token, ended_at, cause)
     SELECT nextval('tombstone_seq'), s, h, t, $4, 'restored'
       FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS u(s, h, t, o) ORDER BY o`,
    [ordered.map((l) => l.scope), ordered.map((l) => l.holder), ordered.map((l) => l.token), now],
  );
  await tx.query(
    `WITH e AS (UPDATE recovery_epoch SET epoch = $2)
     INSERT INTO blocked_scope (scope, state) SELECT s, 'BlockedForReconciliation' FROM unnest($1::text[]) AS s
     ON CONFLICT (scope) DO NOTHING`,
    [command.blockScopes.map(encodeText), recoveryEpoch],
  );
  return { kind: 'RecoveryAdvanced', recoveryEpoch, invalidated: live.length };
}

export async function reconcileScope(tx: Tx, command: ReconcileScopeCommand): Promise<ReconcileScopeResult> {
  const deleted = await tx.query(
    "DELETE FROM blocked_scope WHERE scope = $1 AND state = 'BlockedForReconciliation' RETURNING scope",
    [encodeText(command.scope)],
  );
  return deleted.length > 0 ? { kind: 'Reconciled' } : { kind: 'NotBlocked' };
}

export async function advanceRoleEpoch(tx: Tx, command: AdvanceRoleEpochCommand): Promise<AdvanceRoleEpochResult> {
  const role = encodeText(command.role);
  // A stored epoch is never negative: a negative request, or one that is not a finite number, is
  // fenced without writing (model/SEMANTICS.md, clarification 15).
  if (!Number.isFinite(command.epoch) || command.epoch < 0) {
    const rows = await tx.query<{ epoch: number }>('SELECT epoch FROM role_epoch WHERE role = $1 FOR SHARE', [role]);
    return { kind: 'Fenced', role: command.role, currentEpoch: rows[0]?.epoch ?? 0 };
  }
  const [row] = await tx.query<{ epoch: number }>(
    'INSERT INTO role_epoch AS r (role, epoch) VALUES ($1, $2) ON CONFLICT (role) DO UPDATE SET epoch = r.epoch RETURNING r.epoch',
    [role, command.epoch],
  );
  if (command.epoch < row!.epoch) return { kind: 'Fenced', role: command.role, currentEpoch: row!.epoch };
  if (command.epoch > row!.epoch) await tx.query('UPDATE role_epoch SET epoch = $2 WHERE role = $1', [role, command.epoch]);
  return { kind: 'RoleEpochAdvanced', role: command.role, epoch: command.epoch };
}
