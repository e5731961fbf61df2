// The PostgreSQL store: every command of model/commands.ts in one transaction each, every query
// parameterized, outcomes exactly as the reference model returns them (model/SEMANTICS.md).
// Acquire, Renew, Release and Mutate run as one autocommit statement calling a PL/pgSQL function
// (fast-path.ts, one round trip); every other command runs as a pipelined multi-statement
// transaction (transaction.ts, two round trips). Isolation, locking and unknown-outcome handling:
// see those two files.
//
// Time (docs/ARCHITECTURE.md "Time and determinism"): with `time: 'database'` the store clock is the
// server's `clock_timestamp()` (integer ms), read after the command's locks are granted; with a
// TimeSource its `now()` is read once per command and passed into the transaction as a
// parameter that the SQL uses instead of the server clock.

import pg from 'pg';
import type { Command } from '../../model/commands.ts';
import type { JobAttemptResult, Outcome, OutcomeOf } from '../../model/outcomes.ts';
import { StoreUnavailableError, type Store, type StoreFactory, type StoreImage, type StoreOptions } from '../port.ts';
import type { StoreTimeReport } from '../interleaving.ts';
import { acquirePermit, defineCapacity, releasePermit, reserve, transitionReservation } from './capacity-commands.ts';
import { FastPathRunner } from './fast-path.ts';
import { isFastCommand, type FastCommand } from './lease-functions.ts';
import { startPostgres, type PostgresServer } from './harness.ts';
import { dispatchJob, endAttempt, listJobs, submitJob } from './job-commands.ts';
import { inspect, loadImage, takeImage } from './inspect.ts';
import { acquire, acquireAll, cancelWait, enqueue, forceRelease, handoff, mutate, release, renew } from './lease-commands.ts';
import {
  advanceRecoveryEpoch,
  advanceRoleEpoch,
  idempotencyBegin,
  idempotencyComplete,
  planIntent,
  reconcileScope,
  transitionIntent,
} from './record-commands.ts';
import { assertSchemaName, migrate, replaceFunctions } from './schema.ts';
import { isConnectionError, TransactionRunner, type TransactionHooks, type Tx } from './transaction.ts';

export interface PostgresStoreOptions extends StoreOptions {
  readonly connectionString: string;
  /** The schema holding this store's tables (created and migrated on first use). Default 'testbed'. */
  readonly schema?: string;
  /** Connections in the pool. Default 10. */
  readonly poolSize?: number;
  /** Give up connecting after this long: the store is unavailable. Default 5000. */
  readonly connectTimeoutMs?: number;
  readonly hooks?: TransactionHooks;
  /**
   * Run Acquire, Renew, Release and Mutate as one autocommit statement each (fast-path.ts).
   * Default true; false calls the same functions as one statement of a transaction
   * (lease-functions.ts), as every other command runs.
   */
  readonly fastPath?: boolean;
  /** Called by close() after the pool has ended (a harness-owned server stops here). */
  readonly onClose?: () => Promise<void>;
  /** The store's name (default 'postgres'); a variant of the store names itself. */
  readonly name?: string;
  /**
   * Command bodies that replace this store's own for their kinds: a variant of the store (the SQL
   * race mutants of mutants/sql/) differs from it in these alone. They run as
   * multi-statement transactions (transaction.ts), never on the fast path.
   */
  readonly commands?: CommandBodies;
  /**
   * With `time: 'database'`: the schema carries the testbed's clock (interleave/database-time.ts),
   * which shadows the server's time functions, so store time is the run's virtual time, read in
   * SQL after the command's locks.
   */
  readonly databaseClock?: boolean;
  /**
   * One-statement commands whose function is replaced (SQL race mutants inside one function,
   * mutants/sql/unlocked-function.ts): the function's name and its CREATE FUNCTION text, installed
   * after the migrations; the fast path calls it in place of `testbed_<command>`.
   */
  readonly functions?: FunctionVariants;
}

export type FunctionVariants = Partial<Record<FastCommand['kind'], { readonly name: string; readonly sql: string }>>;

type CommandOfKind<K extends Command['kind']> = Command extends infer C ? (C extends { readonly kind: infer CK } ? (K extends CK ? C : never) : never) : never;

/** One command's body inside its transaction, as the functions of lease-commands.ts are. */
export type CommandBodies = { readonly [K in Command['kind']]?: (tx: Tx, command: CommandOfKind<K>) => Promise<OutcomeOf<CommandOfKind<K>>> };

/** bigint arrives as a string from pg; every bigint here is below 2^53 (tokens, ms times). */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20) {
      return (value: string) => {
        const parsed = Number(value);
        if (!Number.isSafeInteger(parsed)) throw new Error(`bigint ${value} does not fit a JS number`);
        return parsed;
      };
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

/** Every command's body: a full table, so a command kind without one does not compile. */
const BODIES: Required<CommandBodies> = {
  Acquire: acquire,
  Renew: renew,
  Release: release,
  Handoff: handoff,
  ForceRelease: forceRelease,
  Enqueue: enqueue,
  CancelWait: cancelWait,
  Mutate: mutate,
  DefineCapacity: defineCapacity,
  AcquirePermit: acquirePermit,
  ReleasePermit: releasePermit,
  Reserve: reserve,
  ActivateReservation: transitionReservation,
  ConsumeReservation: transitionReservation,
  ReleaseReservation: transitionReservation,
  FailReservation: transitionReservation,
  AcquireAll: acquireAll,
  IdempotencyBegin: idempotencyBegin,
  IdempotencyComplete: idempotencyComplete,
  PlanIntent: planIntent,
  TransitionIntent: transitionIntent,
  AdvanceRecoveryEpoch: advanceRecoveryEpoch,
  ReconcileScope: reconcileScope,
  AdvanceRoleEpoch: advanceRoleEpoch,
  SubmitJob: submitJob,
  DispatchJob: dispatchJob,
  // One body decides both ends of an attempt; the kind of the command is the kind of its answer.
  FinishJob: (tx, command) => endAttempt(tx, command) as Promise<JobAttemptResult<'JobFinished'>>,
  ReturnJob: (tx, command) => endAttempt(tx, command) as Promise<JobAttemptResult<'JobReturned'>>,
  ListJobs: (tx) => listJobs(tx),
  Inspect: (tx) => inspect(tx).then((view) => ({ kind: 'Snapshot', view }) as const),
};

function dispatch(tx: Tx, command: Command): Promise<Outcome> {
  const body = BODIES[command.kind] as ((tx: Tx, command: Command) => Promise<Outcome>) | undefined;
  if (body === undefined) throw new Error(`unknown command ${JSON.stringify(command)}`);
  return body(tx, command);
}

export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store & StoreTimeReport> {
  const schema = options.schema ?? 'testbed';
  assertSchemaName(schema);
  // A replaced function is what the fast path calls: without it the variant would never run.
  if (options.fastPath === false && Object.keys(options.functions ?? {}).length > 0) throw new Error('store functions are replaced on the fast path only: leave fastPath on');
  const clientConfig: pg.ClientConfig = {
    connectionString: options.connectionString,
    options: `-c search_path=${schema}${options.databaseClock === true ? ',pg_catalog' : ''}`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    types,
  };
  // Idle connections are kept (idleTimeoutMillis 0: pg's default closes them after 10 s of wall
  // time). A connection opened again runs its identity and sweep queries first: under controlled
  // interleaving those are statements of the batch, so a run slowed down by a loaded machine would
  // be scheduled otherwise than its replay.
  const pool = new pg.Pool({ ...clientConfig, pipeline: true, max: options.poolSize ?? 10, idleTimeoutMillis: 0 } as pg.PoolConfig);
  // An idle client whose server went away emits 'error'; the pool drops it, nothing to do here.
  pool.on('error', () => undefined);
  const runner = new TransactionRunner(pool, clientConfig, options.hooks ?? {});
  const fast = new FastPathRunner(pool, clientConfig, options.hooks ?? {}, options.databaseClock === true, options.functions ?? {});
  const fastPath = options.fastPath ?? true;
  const time = options.time;

  let migrated: Promise<void> | null = null;
  const ready = (kind: Command['kind']): Promise<void> => {
    migrated ??= (async () => {
      const client = await pool.connect();
      try {
        await migrate(client, schema);
        await replaceFunctions(client, Object.values(options.functions ?? {}).map((variant) => variant.sql));
        client.release();
      } catch (error) {
        client.release(error instanceof Error ? error : true);
        throw error;
      }
    })();
    return migrated.catch((error: unknown) => {
      migrated = null;
      throw isConnectionError(error) ? new StoreUnavailableError(kind, error) : error;
    });
  };

  const virtualNow = (): number | null => (time === 'database' ? null : time.now());
  /** The store time the last call decided with, where a transaction read it (StoreTimeReport). */
  let lastRead: number | null = null;

  return {
    name: options.name ?? 'postgres',
    lastStoreTime: () => lastRead,
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      lastRead = null;
      await ready(command.kind);
      const now = virtualNow();
      const replaced = options.commands?.[command.kind] as ((tx: Tx, command: C) => Promise<Outcome>) | undefined;
      // Acquire, Renew, Release and Mutate: one autocommit statement, one round trip (fast-path.ts).
      if (fastPath && isFastCommand(command) && replaced === undefined) {
        const outcome = await fast.run(command, now);
        lastRead = fast.timeRead;
        return outcome as OutcomeOf<C>;
      }
      const readOnly = command.kind === 'Inspect' || command.kind === 'ListJobs';
      const exclusive = command.kind === 'AdvanceRecoveryEpoch';
      const body = async (tx: Tx): Promise<Outcome> => {
        const outcome = await (replaced === undefined ? dispatch(tx, command) : replaced(tx, command));
        lastRead = tx.timeRead();
        return outcome;
      };
      const outcome = await runner.run(command.kind, now, body, { readOnly, exclusive });
      return outcome as OutcomeOf<C>;
    },
    async snapshot(): Promise<StoreImage> {
      await ready('Inspect');
      return runner.run('Inspect', virtualNow(), takeImage, { readOnly: true });
    },
    async restore(image: StoreImage): Promise<void> {
      await ready('AdvanceRecoveryEpoch');
      await runner.run('AdvanceRecoveryEpoch', virtualNow(), (tx) => loadImage(tx, image), { exclusive: true });
    },
    async close(): Promise<void> {
      try {
        await pool.end();
      } finally {
        await options.onClose?.();
      }
    },
  };
}

/**
 * The `--adapter postgres` factory: the server from DATABASE_URL (in a fresh schema), else an
 * embedded server started for this store and stopped by close().
 */
const factory: StoreFactory = async (options) => {
  const server: PostgresServer = await startPostgres();
  return createPostgresStore({ ...options, connectionString: server.connectionString, schema: server.schema, onClose: () => server.stop() });
};

export default factory;
