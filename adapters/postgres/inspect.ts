// Inspect (model/SEMANTICS.md "Inspect") and store images for simulated failover/restore.
// Both read every table in one REPEATABLE READ snapshot, so the picture is consistent.

import type { StoredOutcome } from '../../model/idempotency-outcome.ts';
import type {
  EffectIntent,
  IdempotencyRecord,
  Lease,
  Permit,
  Reservation,
  ScopeOperationalState,
  StoreView,
  Tombstone,
  Waiter,
} from '../../model/outcomes.ts';
import type { StoreImage } from '../port.ts';
import { reservationOf } from './capacity-commands.ts';
import { intentOf } from './record-commands.ts';
import { DATA_TABLES, SCHEMA_VERSION } from './schema.ts';
import { decodeText } from './text-codec.ts';
import type { Tx } from './transaction.ts';

type Row = Record<string, unknown>;

/** Ascending by UTF-16 code units over several keys, the order every store's view uses. */
function byKeys<T>(keys: (item: T) => ReadonlyArray<string>): (a: T, b: T) => number {
  return (a, b) => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) {
      if (ka[i]! < kb[i]!) return -1;
      if (ka[i]! > kb[i]!) return 1;
    }
    return 0;
  };
}

async function readTables(tx: Tx): Promise<Record<string, Row[]>> {
  const selects = DATA_TABLES.map((table) => `(SELECT coalesce(json_agg(t), '[]'::json) FROM ${table} t) AS ${table}`);
  const [row] = await tx.query<Record<string, Row[]>>(`SELECT ${selects.join(', ')}`);
  return row!;
}

const s = (value: unknown): string => decodeText(value as string);
const n = (value: unknown): number => value as number;

export async function inspect(tx: Tx): Promise<StoreView> {
  const now = await tx.now();
  const t = await readTables(tx);
  const leases: Lease[] = t.lease!.filter((r) => now < n(r.expires_at)).map((r) => ({
    scope: s(r.scope),
    holder: s(r.holder),
    token: n(r.token),
    acquiredAt: n(r.acquired_at),
    expiresAt: n(r.expires_at),
  }));
  const tokens = t.scope_counter!.filter((r) => n(r.last_token) > 0).map((r) => ({ scope: s(r.scope), lastToken: n(r.last_token) }));
  const tombstones: Tombstone[] = [...t.tombstone!]
    .sort((a, b) => n(a.seq) - n(b.seq))
    .map((r) => ({
      scope: s(r.scope),
      holder: s(r.holder),
      token: n(r.token),
      endedAt: n(r.ended_at),
      cause: r.cause as Tombstone['cause'],
      ...(r.actor === null ? {} : { actor: s(r.actor) }),
      ...(r.reason === null ? {} : { reason: s(r.reason) }),
    }));
  const waiters: Waiter[] = t.waiter!.map((r) => ({
    scope: s(r.scope),
    waiterId: s(r.waiter_id),
    holder: s(r.holder),
    priority: n(r.priority),
    enqueuedAt: n(r.enqueued_at),
    seq: n(r.seq),
  }));
  const capacities = t.capacity!.map((r) => ({ scope: s(r.scope), capacity: n(r.capacity) }));
  const permits: Permit[] = t.permit!.filter((r) => now < n(r.expires_at)).map((r) => ({
    scope: s(r.scope),
    permitId: s(r.permit_id),
    holder: s(r.holder),
    units: n(r.units),
    expiresAt: n(r.expires_at),
  }));
  const reservations: Reservation[] = t.reservation!.map((r) => reservationOf(r as never, now));
  const idempotency: IdempotencyRecord[] = t.idempotency!.filter((r) => now < n(r.expires_at)).map((r) => ({
    tenant: s(r.tenant),
    operation: s(r.operation),
    subject: s(r.subject),
    key: s(r.key),
    digest: s(r.digest),
    state: r.state as IdempotencyRecord['state'],
    outcome: r.outcome_json === null ? null : (JSON.parse(r.outcome_json as string) as StoredOutcome),
    createdAt: n(r.created_at),
    expiresAt: n(r.expires_at),
  }));
  const intents: EffectIntent[] = t.effect_intent!.map((r) => intentOf(r as never));
  const aggregates = t.aggregate!.map((r) => ({ scope: s(r.scope), aggregate: s(r.aggregate), version: n(r.version), lastToken: n(r.last_token) }));
  const blocked = new Map(t.blocked_scope!.map((r) => [s(r.scope), r.state as ScopeOperationalState]));
  const liveScopes = new Set(leases.map((l) => l.scope));
  const waitingScopes = new Set(waiters.map((w) => w.scope));
  const scopes = new Set([...tokens.map((x) => x.scope), ...waitingScopes, ...capacities.map((c) => c.scope), ...blocked.keys()]);
  const stateOf = (scope: string): ScopeOperationalState =>
    blocked.get(scope) ?? (liveScopes.has(scope) ? 'Owned' : waitingScopes.has(scope) ? 'Waiting' : 'Free');
  return {
    recoveryEpoch: n(t.recovery_epoch![0]!.epoch),
    leases: leases.sort(byKeys((l) => [l.scope])),
    tokens: tokens.sort(byKeys((x) => [x.scope])),
    tombstones,
    waiters: waiters.sort((a, b) => a.seq - b.seq),
    capacities: capacities.sort(byKeys((c) => [c.scope])),
    permits: permits.sort(byKeys((p) => [p.scope, p.permitId])),
    reservations: reservations.sort(byKeys((r) => [r.reservationId])),
    idempotency: idempotency.sort(byKeys((r) => [r.tenant, r.operation, r.subject, r.key])),
    intents: intents.sort(byKeys((i) => [i.intentId])),
    aggregates: aggregates.sort(byKeys((a) => [a.scope, a.aggregate])),
    scopeStates: [...scopes].sort(byKeys((x) => [x])).map((scope) => ({ scope, state: stateOf(scope) })),
    roleEpochs: t.role_epoch!.map((r) => ({ role: s(r.role), epoch: n(r.epoch) })).sort(byKeys((r) => [r.role])),
  };
}

/** The data of a PostgreSQL store image: every row of every table, as stored, plus the sequence. */
interface ImageData {
  readonly schemaVersion: number;
  readonly tables: Record<string, Row[]>;
  readonly tombstoneSeq: number;
}

export async function takeImage(tx: Tx): Promise<StoreImage> {
  const tables = await readTables(tx);
  const [seq] = await tx.query<{ last_value: number; is_called: boolean }>('SELECT last_value, is_called FROM tombstone_seq');
  const data: ImageData = { schemaVersion: SCHEMA_VERSION, tables, tombstoneSeq: seq!.is_called ? seq!.last_value : 0 };
  return { adapter: 'postgres', data };
}

/** Replace every row with the image's, in this one transaction (truncate + reload). */
export async function loadImage(tx: Tx, image: StoreImage): Promise<void> {
  if (image.adapter !== 'postgres') throw new Error(`cannot restore a ${image.adapter} image into a postgres store`);
  const data = image.data as ImageData;
  if (data.schemaVersion !== SCHEMA_VERSION) throw new Error(`image schema ${data.schemaVersion} is not ${SCHEMA_VERSION}`);
  // The transaction holds the recovery gate exclusively (store.ts): no command runs meanwhile.
  // One DELETE of every table, referencing tables first: the tables are small, and a TRUNCATE
  // makes new files for every table and index each time, which a restore per schedule (the race
  // stage) pays for in disk writes. Foreign keys are checked at the statement's end.
  await tx.query(`WITH ${[...DATA_TABLES].reverse().map((table, i) => `d${i} AS (DELETE FROM ${table})`).join(', ')} SELECT 1`);
  for (const table of DATA_TABLES) {
    const rows = data.tables[table] ?? [];
    if (rows.length === 0) continue;
    // Table names come from DATA_TABLES, never from the image; the rows travel as a parameter.
    await tx.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(rows)]);
  }
  if (data.tombstoneSeq > 0) await tx.query("SELECT setval('tombstone_seq', $1)", [data.tombstoneSeq]);
  else await tx.query("SELECT setval('tombstone_seq', 1, false)");
}
