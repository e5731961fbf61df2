// idempotency-check-then-insert — seed 000 §43–§47 (one idempotency record per key; "Never
// silently reuse an idempotency key"), §49 (InProgress), §72 ("Postgres Baseline: unique
// constraints, transactional insert/update"), §283 (idempotency same-request test). Source: the
// issue's "an idempotency record checked then inserted without the unique constraint doing the
// work", the check-then-insert race of hand-written dedupe tables.
//
// The real IdempotencyBegin locks the key's record (SELECT ... FOR UPDATE) and starts a new one
// with INSERT ... ON CONFLICT DO NOTHING, so of two racing first requests the unique constraint
// lets exactly one insert and the other looks again (record-commands.ts). This one reads the
// record without a lock and, when there is none, writes with an upsert that overwrites a record
// inserted in the meantime. Run alone, it decides as the real store does. Two first requests with
// one key running at once both find no record and both are told New: the operation runs twice.

import type { IdempotencyBeginCommand } from '../../model/commands.ts';
import type { IdempotencyBeginResult } from '../../model/outcomes.ts';
import { isValidBegin } from '../../model/idempotency.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import { answerExisting, keyParams, type IdempotencyRow } from '../../adapters/postgres/record-commands.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function idempotencyBegin(tx: Tx, command: IdempotencyBeginCommand): Promise<IdempotencyBeginResult> {
  if (!isValidBegin(command)) return { kind: 'Rejected', reason: 'invalid-argument' };
  // THE BUG (1 of 2): the check is a plain read, no FOR UPDATE.
  const [row] = await tx.query<IdempotencyRow>(
    `SELECT digest, state, outcome_json, expires_at FROM idempotency
      WHERE tenant = $1 AND operation = $2 AND subject = $3 AND key = $4`,
    keyParams(command),
  );
  const now = await tx.now();
  const start = async (): Promise<IdempotencyBeginResult> => {
    // THE BUG (2 of 2): the insert swallows a conflict by overwriting, so the unique constraint
    // never tells the loser of the race that it lost.
    await tx.query(
      `INSERT INTO idempotency (tenant, operation, subject, key, digest, state, outcome_json, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'InProgress', NULL, $6, $7)
       ON CONFLICT ON CONSTRAINT idempotency_identity DO UPDATE SET digest = EXCLUDED.digest, state = 'InProgress',
         outcome_json = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
      [...keyParams(command), encodeText(command.digest), now, now + command.retentionMs],
    );
    return { kind: 'New' };
  };
  // An expired record is absent (§54).
  if (row === undefined || now >= row.expires_at) return start();
  const answer = answerExisting(row, command);
  return answer === 'start-again' ? start() : answer;
}

/** The command bodies it replaces. */
export const idempotencyCheckThenInsert: CommandBodies = { IdempotencyBegin: idempotencyBegin };
