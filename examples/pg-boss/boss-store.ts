// Leases as pg-boss (12.38.0) jobs, as a user would plug them into the testbed: a scope is a
// `singleton` queue, which lets one job be active at a time; the active job is the lease. Taking
// the lease is `send` then `fetch`; renewing it is `touch` (the job's heartbeat); giving it back is
// `complete`. Its TTL is the job's `heartbeatSeconds`, and pg-boss's own supervisor ends it
// (`supervise`, which fails every active job whose heartbeat is older than that, in SQL).
//
// Time: pg-boss's `TestClock`, attached to the schema, makes every pg-boss statement read the same
// time through `job_now()`. The store sets it from the testbed's store time before each command and
// runs the supervisor there, so expiry happens in virtual time, deterministically; pg-boss's own
// timers (supervision, scheduling) are off. pg-boss's time runs SCALE times as fast as the
// store's, because a heartbeat is at least 10 s: a lease of 300 ms is a heartbeat of 30 s.
//
// What the glue adds, because the port asks for it: an integer token per job (`boss_tokens`, a
// counter per scope), and the protected resource (`boss_versions`). Two uses differ in Mutate:
// - unfenced.ts writes if the version matches, as a job handler that "has the job" would;
// - fenced.ts writes only while its job is still active and within its expiry, checked in the
//   same statement as the write (the job's id is the fence).
//
//     DATABASE_URL=postgresql://... npx testbed run --scenario paused-holder-expiry --seed 1 --adapter examples/pg-boss/unfenced.ts

import { createHash } from 'node:crypto';
import pg from 'pg';
import { PgBoss, TestClock, enableClockOverride } from 'pg-boss';
import type { Command } from '../../model/commands.ts';
import type { Store, StoreOptions } from '../../adapters/port.ts';

const COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;
const SCHEMA = 'testbed_pgboss';
/** pg-boss milliseconds per store millisecond. */
const SCALE = 100;
/** pg-boss's smallest heartbeat, in seconds. */
const HEARTBEAT_MIN_S = 10;
/** Long enough that a job never reaches its own expiry in a run: the heartbeat ends it first. */
const EXPIRE_S = 43_200;

const GLUE = `
  CREATE TABLE IF NOT EXISTS ${SCHEMA}.boss_tokens (job_id text PRIMARY KEY, scope text NOT NULL, holder text NOT NULL, token bigint NOT NULL, acquired_at bigint NOT NULL, expires_at bigint NOT NULL, heartbeat_s int NOT NULL);
  CREATE TABLE IF NOT EXISTS ${SCHEMA}.boss_fence (scope text PRIMARY KEY, last bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS ${SCHEMA}.boss_versions (scope text, aggregate text, version bigint NOT NULL, PRIMARY KEY (scope, aggregate));`;

type Outcome = Record<string, unknown> & { kind: string };

/**
 * A job that is still the lease: active, and not past the expiry the supervisor judges by. Between
 * that instant and the supervisor's next pass the job is still `active` in pg-boss's table (and
 * pg-boss would still complete it): the glue does not count it as held.
 */
const LIVE = `state = 'active' AND heartbeat_on + heartbeat_seconds * interval '1s' >= ${SCHEMA}.job_now()`;

/** The heartbeat, in seconds of pg-boss time, that lasts at least `ttlMs` of store time. */
const heartbeatOf = (ttlMs: number): number => Math.max(HEARTBEAT_MIN_S, Math.ceil((ttlMs * SCALE) / 1000));
/** The store time up to which a job whose heartbeat was at `at` is live: the supervisor fails it after, not at, that instant. */
const liveUntil = (at: number, heartbeatS: number): number => at + (heartbeatS * 1000) / SCALE + 1;

interface Grant {
  readonly job_id: string;
  readonly holder: string;
  readonly token: string;
  readonly acquired_at: string;
  readonly expires_at: string;
  readonly heartbeat_s: number;
}

export interface BossStoreOptions extends StoreOptions {
  readonly fenced: boolean;
}

/** A queue name pg-boss accepts, the same for a scope in every run. */
const queueOf = (scope: string): string => `lease_${createHash('sha256').update(scope).digest('hex').slice(0, 24)}`;

export async function createBossStore(options: BossStoreOptions): Promise<Store> {
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (connectionString === undefined) throw new Error('no database: set DATABASE_URL to a PostgreSQL server the store may use');
  if (options.time === 'database') throw new Error('this store runs pg-boss on the testbed\'s store time; run it in the simulator');
  const time = options.time;
  const clock = new TestClock(time.now() * SCALE);
  // The supervisor expires a queue's jobs at most once per monitor and maintenance interval: at
  // most once a second here (the default is far longer), and only when the store runs it.
  const boss = new PgBoss({ connectionString, schema: SCHEMA, clock, supervise: false, schedule: false, max: 2, monitorIntervalSeconds: 1, maintenanceIntervalSeconds: 1 });
  let failure: Error | null = null;
  boss.on('error', (error: Error) => {
    failure = error;
  });
  await boss.start();
  const detach = await clock.attach({ db: boss.getDb(), schema: SCHEMA });
  const glue = new pg.Client({ connectionString });
  glue.on('error', () => undefined);
  await glue.connect();
  // The glue's own statements read pg-boss's time too: job_now() is the TestClock's only on a
  // session that turned the override on.
  await glue.query(enableClockOverride());
  await glue.query(GLUE);
  // Each run starts with no queues (a queue keeps when it was last supervised: a run must not
  // inherit that from an earlier one) and empty glue tables.
  for (const known of await boss.getQueues()) await boss.deleteQueue(known.name);
  await glue.query(`TRUNCATE ${SCHEMA}.boss_tokens, ${SCHEMA}.boss_fence, ${SCHEMA}.boss_versions`);
  const queues = new Set<string>();

  const queue = async (scope: string): Promise<string> => {
    const name = queueOf(scope);
    if (!queues.has(name)) {
      if ((await boss.getQueue(name)) === null) await boss.createQueue(name, { policy: 'singleton', retryLimit: 0 });
      queues.add(name);
    }
    return name;
  };

  /** The grant of the scope's active job, if any: pg-boss's job table says which job is active. */
  const activeGrant = async (name: string): Promise<Grant | undefined> =>
    (await glue.query<Grant>(`SELECT t.* FROM ${SCHEMA}.boss_tokens t JOIN ${SCHEMA}.job j ON j.id::text = t.job_id WHERE j.name = $1 AND j.state = 'active'`, [name])).rows[0];

  const grantOf = async (scope: string, holder: string, token: number): Promise<Grant | undefined> =>
    (await glue.query<Grant>(`SELECT * FROM ${SCHEMA}.boss_tokens WHERE scope = $1 AND holder = $2 AND token = $3`, [scope, holder, token])).rows[0];

  const isActive = async (jobId: string): Promise<boolean> => ((await glue.query(`SELECT 1 FROM ${SCHEMA}.job WHERE id::text = $1 AND ${LIVE}`, [jobId])).rowCount ?? 0) > 0;

  const lease = (scope: string, grant: Grant) => ({ scope, holder: grant.holder, token: Number(grant.token), acquiredAt: Number(grant.acquired_at), expiresAt: Number(grant.expires_at) });

  async function acquire(command: Extract<Command, { kind: 'Acquire' }>, name: string): Promise<Outcome> {
    const heartbeat = heartbeatOf(command.ttlMs);
    const id = await boss.send(name, { holder: command.holder }, { heartbeatSeconds: heartbeat, expireInSeconds: EXPIRE_S, retryLimit: 0 });
    const fetched = await boss.fetch(name);
    if (fetched.length > 0 && fetched[0]!.id === id) {
      const token = Number((await glue.query<{ last: string }>(`INSERT INTO ${SCHEMA}.boss_fence (scope, last) VALUES ($1, 1) ON CONFLICT (scope) DO UPDATE SET last = ${SCHEMA}.boss_fence.last + 1 RETURNING last`, [command.scope])).rows[0]!.last);
      const at = time.now();
      const grant: Grant = { job_id: id!, holder: command.holder, token: String(token), acquired_at: String(at), expires_at: String(liveUntil(at, heartbeat)), heartbeat_s: heartbeat };
      await glue.query(`INSERT INTO ${SCHEMA}.boss_tokens (job_id, scope, holder, token, acquired_at, expires_at, heartbeat_s) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [grant.job_id, command.scope, grant.holder, token, at, grant.expires_at, heartbeat]);
      return { kind: 'Acquired', lease: lease(command.scope, grant) };
    }
    if (fetched.length > 0) throw new Error(`queue ${name} handed out a job this store did not send last`);
    // Another job is active: take ours back out of the queue, so nobody fetches it later.
    if (id !== null) await boss.deleteJob(name, id);
    const active = await activeGrant(name);
    if (active === undefined) throw new Error(`queue ${name} has no active job, yet fetch returned none`);
    return { kind: 'Busy', holder: active.holder, token: Number(active.token), expiresAt: Number(active.expires_at) };
  }

  async function mutate(command: Extract<Command, { kind: 'Mutate' }>, name: string): Promise<Outcome> {
    const { scope, aggregate, token, expectedVersion } = command;
    const grant = await grantOf(scope, command.holder, token);
    const currentToken = async () => Number((await activeGrant(name))?.token ?? NaN) || null;
    if (options.fenced && grant === undefined) return { kind: 'StaleFence', currentToken: await currentToken() };
    await glue.query(`INSERT INTO ${SCHEMA}.boss_versions (scope, aggregate, version) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [scope, aggregate]);
    const fence = options.fenced ? `AND EXISTS (SELECT 1 FROM ${SCHEMA}.job WHERE id::text = $4 AND ${LIVE})` : '';
    const values = options.fenced ? [scope, aggregate, expectedVersion, grant!.job_id] : [scope, aggregate, expectedVersion];
    const written = await glue.query<{ version: string }>(`UPDATE ${SCHEMA}.boss_versions SET version = version + 1 WHERE scope = $1 AND aggregate = $2 AND version = $3 ${fence} RETURNING version`, values);
    if (written.rowCount === 1) return { kind: 'Accepted', version: Number(written.rows[0]!.version), token };
    const version = Number((await glue.query<{ version: string }>(`SELECT version FROM ${SCHEMA}.boss_versions WHERE scope = $1 AND aggregate = $2`, [scope, aggregate])).rows[0]!.version);
    if (version !== expectedVersion) return { kind: 'StaleVersion', currentVersion: version };
    return { kind: 'StaleFence', currentToken: await currentToken() };
  }

  async function decide(command: Command): Promise<Outcome> {
    if (command.kind !== 'Acquire' && command.kind !== 'Renew' && command.kind !== 'Release' && command.kind !== 'Mutate') throw new Error(`not implemented: ${command.kind}`);
    const name = await queue(command.scope);
    // pg-boss's supervisor, on the store's time: an active job past its expiry fails now.
    await clock.setTime(time.now() * SCALE);
    await boss.supervise(name);
    switch (command.kind) {
      case 'Acquire':
        return acquire(command, name);
      case 'Renew': {
        const grant = await grantOf(command.scope, command.holder, command.expectedToken);
        if (grant !== undefined && (await isActive(grant.job_id)) && (await boss.touch(name, grant.job_id)).affected === 1) {
          const renewed = { ...grant, expires_at: String(liveUntil(time.now(), grant.heartbeat_s)) };
          await glue.query(`UPDATE ${SCHEMA}.boss_tokens SET expires_at = $2 WHERE job_id = $1`, [grant.job_id, renewed.expires_at]);
          return { kind: 'Renewed', lease: lease(command.scope, renewed) };
        }
        if (grant !== undefined) return { kind: 'Expired' };
        return { kind: 'Stale', currentToken: Number((await activeGrant(name))?.token ?? NaN) || null };
      }
      case 'Release': {
        const grant = await grantOf(command.scope, command.holder, command.token);
        const done = grant === undefined ? 0 : (await boss.complete(name, grant.job_id)).affected;
        if (done === 1) return { kind: 'Released', token: command.token };
        return { kind: 'Stale', currentToken: Number((await activeGrant(name))?.token ?? NaN) || null };
      }
      case 'Mutate':
        return mutate(command, name);
    }
  }

  return {
    name: options.fenced ? 'pg-boss (fenced)' : 'pg-boss (unfenced)',
    capabilities: { commands: COMMANDS, referenceSemantics: false, deterministic: true },
    async execute(command) {
      const outcome = await decide(command);
      if (failure !== null) throw failure;
      return outcome as never;
    },
    async close() {
      await detach[Symbol.asyncDispose]();
      await boss.stop({ graceful: false, close: true });
      await glue.end();
    },
  };
}
