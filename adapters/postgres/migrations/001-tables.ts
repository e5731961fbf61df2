// Migration 1 of the PostgreSQL store (adapters/postgres/schema.ts): the tables and their
// constraints, each commented with the sections of seed 000 it keeps.

import type { Migration } from './migration.ts';

export const TABLES: Migration = {
  version: 1,
  description: 'leases, fencing counters, waiting, semaphores, idempotency, intents, recovery',
  sql: `
-- Per-scope fencing counter (§24, §203–§204). Its row is also the scope's lock: every command on
-- a scope starts with SELECT ... FOR UPDATE here. It is never deleted, never lowered.
CREATE TABLE scope_counter (
  scope      text PRIMARY KEY,
  last_token bigint NOT NULL DEFAULT 0 CHECK (last_token >= 0)
);

-- The durable lease table (§75–§78): at most one row, hence one owner, per scope. An expired row
-- stays until it is replaced; liveness is now < expires_at, decided by store time.
CREATE TABLE lease (
  scope       text PRIMARY KEY REFERENCES scope_counter (scope),
  holder      text   NOT NULL,
  token       bigint NOT NULL,
  acquired_at bigint NOT NULL,
  expires_at  bigint NOT NULL
);

-- Tombstones / audit (§200–§206): appended, never removed. seq gives the append order; gaps
-- (from rolled-back transactions) do not matter, only the order, so a sequence serves.
CREATE SEQUENCE tombstone_seq;
CREATE TABLE tombstone (
  seq        bigint PRIMARY KEY,
  scope      text   NOT NULL,
  holder     text   NOT NULL,
  token      bigint NOT NULL,
  ended_at   bigint NOT NULL,
  cause      text   NOT NULL CHECK (cause IN ('released', 'expired', 'handed-off', 'force-released', 'restored')),
  actor      text,
  reason     text
);

-- Global counters whose values are visible and must not have gaps on rollback (a sequence
-- would): the waiter seq. The row is locked FOR UPDATE by the transaction that takes a number.
CREATE TABLE counter (
  name  text PRIMARY KEY,
  value bigint NOT NULL
);
INSERT INTO counter (name, value) VALUES ('waiter_seq', 0);

-- Waiters (§86–§92): FIFO by seq, explicit priority, aging computed from enqueued_at.
CREATE TABLE waiter (
  waiter_id   text PRIMARY KEY,
  scope       text   NOT NULL,
  holder      text   NOT NULL,
  priority    integer NOT NULL,
  enqueued_at bigint NOT NULL,
  seq         bigint NOT NULL UNIQUE
);
CREATE INDEX waiter_scope ON waiter (scope, seq);

CREATE TABLE capacity (
  scope    text PRIMARY KEY,
  capacity integer NOT NULL CHECK (capacity >= 1)
);

-- A permit row may be expired; an expired permit holds no units and its id may be reused.
CREATE TABLE permit (
  scope      text NOT NULL,
  permit_id  text NOT NULL,
  holder     text NOT NULL,
  units      bigint NOT NULL CHECK (units >= 1),
  expires_at bigint NOT NULL,
  PRIMARY KEY (scope, permit_id)
);

CREATE TABLE reservation (
  reservation_id text PRIMARY KEY,
  scope      text NOT NULL,
  owner      text NOT NULL,
  units      bigint NOT NULL CHECK (units >= 1),
  state      text NOT NULL CHECK (state IN ('Pending', 'Active', 'Consumed', 'Released', 'Failed')),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX reservation_scope ON reservation (scope);

-- Protected aggregates (§66–§70): version and the token of the last accepted mutation.
CREATE TABLE aggregate (
  scope      text   NOT NULL,
  aggregate  text   NOT NULL,
  version    bigint NOT NULL,
  last_token bigint NOT NULL,
  PRIMARY KEY (scope, aggregate)
);

-- Idempotency records (§43–§58): one per (tenant, operation, subject, key). The stored outcome
-- is JSON text (JSON escapes NUL, so any response string is kept exactly).
CREATE TABLE idempotency (
  tenant       text NOT NULL,
  operation    text NOT NULL,
  subject      text NOT NULL,
  key          text NOT NULL,
  digest       text NOT NULL,
  state        text NOT NULL CHECK (state IN ('InProgress', 'Succeeded', 'FailedTerminal', 'Unknown')),
  outcome_json text,
  created_at   bigint NOT NULL,
  expires_at   bigint NOT NULL,
  CONSTRAINT idempotency_identity UNIQUE (tenant, operation, subject, key)
);

-- External-effect intents (§59–§65).
CREATE TABLE effect_intent (
  intent_id    text PRIMARY KEY,
  scope        text   NOT NULL,
  token        bigint NOT NULL,
  operation    text   NOT NULL,
  retry_safety text   NOT NULL,
  state        text   NOT NULL
);

-- The recovery epoch (§269–§276): a single row. Transactions are ordered against a change of it
-- by a per-schema advisory lock (shared by commands, exclusive by AdvanceRecoveryEpoch and
-- restore, see transaction.ts); the value itself lives only here.
CREATE TABLE recovery_epoch (
  id    boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch bigint NOT NULL CHECK (epoch >= 0)
);
INSERT INTO recovery_epoch (id, epoch) VALUES (true, 0);

-- Scopes held back after recovery or by an operator (§237, §275).
CREATE TABLE blocked_scope (
  scope text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('BlockedForReconciliation', 'Quarantined'))
);

-- Coordination role epochs (seed 001 §92–§95).
CREATE TABLE role_epoch (
  role  text PRIMARY KEY,
  epoch double precision NOT NULL
);
`,
};
