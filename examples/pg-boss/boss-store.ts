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
import type { Store, StoreOptions, TimeSource } from '../../adapters/port.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';

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

/** Opens the store: pg-boss on its schema, with no queues, and the glue's tables, emptied. */
export async function createBossStore(options: BossStoreOptions): Promise<Store> {
  const connectionString = options.connectionString ?? process.env.DATABASE_URL;
  if (connectionString === undefined) throw new Error('no database: set DATABASE_URL to a PostgreSQL server the store may use');
  if (options.time === 'database') throw new Error('this store runs pg-boss on the testbed\'s store time; run it in the simulator');
  const clock = new TestClock(options.time.now() * SCALE);
  // The supervisor expires a queue's jobs at most once per monitor and maintenance interval: at
  // most once a second here (the default is far longer), and only when the store runs it.
  const boss = new PgBoss({ connectionString, schema: SCHEMA, clock, supervise: false, schedule: false, max: 2, monitorIntervalSeconds: 1, maintenanceIntervalSeconds: 1 });
  const store = new BossStore(boss, clock, options.time, options.fenced, new pg.Client({ connectionString }));
  try {
    await store.open();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

class BossStore implements Store {
  readonly name: string;
  readonly capabilities = { commands: COMMANDS, referenceSemantics: false, deterministic: true } as const;
  private failure: Error | null = null;
  private detach: AsyncDisposable | null = null;
  private readonly queues = new Set<string>();

  constructor(
    private readonly boss: PgBoss,
    private readonly clock: TestClock,
    private readonly time: TimeSource,
    private readonly fenced: boolean,
    private readonly glue: pg.Client,
  ) {
    this.name = fenced ? 'pg-boss (fenced)' : 'pg-boss (unfenced)';
    boss.on('error', (error: Error) => {
      this.failure = error;
    });
    glue.on('error', () => undefined);
  }

  async open(): Promise<void> {
    await this.boss.start();
    this.detach = await this.clock.attach({ db: this.boss.getDb(), schema: SCHEMA });
    await this.glue.connect();
    // The glue's own statements read pg-boss's time too: job_now() is the TestClock's only on a
    // session that turned the override on.
    await this.glue.query(enableClockOverride());
    await this.glue.query(GLUE);
    // Each run starts with no queues (a queue keeps when it was last supervised: a run must not
    // inherit that from an earlier one) and empty glue tables.
    await this.boss.deleteAllJobs();
    for (const known of await this.boss.getQueues()) await this.boss.deleteQueue(known.name);
    await this.glue.query(`TRUNCATE ${SCHEMA}.boss_tokens, ${SCHEMA}.boss_fence, ${SCHEMA}.boss_versions`);
  }

  async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
    const outcome = await this.decide(command);
    if (this.failure !== null) throw this.failure;
    return outcome as OutcomeOf<C>;
  }

  async close(): Promise<void> {
    try {
      await this.detach?.[Symbol.asyncDispose]();
      await this.boss.stop({ graceful: false, close: true });
    } finally {
      await this.glue.end();
    }
  }

  private async decide(command: Command): Promise<Outcome> {
    if (command.kind !== 'Acquire' && command.kind !== 'Renew' && command.kind !== 'Release' && command.kind !== 'Mutate') throw new Error(`not implemented: ${command.kind}`);
    const name = await this.queue(command.scope);
    // pg-boss's supervisor, on the store's time: an active job whose heartbeat is too old fails now.
    await this.clock.setTime(this.time.now() * SCALE);
    await this.boss.supervise(name);
    switch (command.kind) {
      case 'Acquire':
        return this.acquire(command, name);
      case 'Renew':
        return this.renew(command, name);
      case 'Release': {
        const grant = await this.grantOf(command.scope, command.holder, command.token);
        const done = grant !== undefined && (await this.isLive(grant.job_id)) ? (await this.boss.complete(name, grant.job_id)).affected : 0;
        if (done === 1) return { kind: 'Released', token: command.token };
        return { kind: 'Stale', currentToken: await this.currentToken(name) };
      }
      case 'Mutate':
        return this.mutate(command, name);
    }
  }

  private async acquire(command: Extract<Command, { kind: 'Acquire' }>, name: string): Promise<Outcome> {
    const heartbeat = heartbeatOf(command.ttlMs);
    const id = await this.boss.send(name, { holder: command.holder }, { heartbeatSeconds: heartbeat, expireInSeconds: EXPIRE_S, retryLimit: 0 });
    const fetched = await this.boss.fetch(name);
    if (fetched.length > 0 && fetched[0]!.id === id) {
      const token = Number((await this.glue.query<{ last: string }>(`INSERT INTO ${SCHEMA}.boss_fence (scope, last) VALUES ($1, 1) ON CONFLICT (scope) DO UPDATE SET last = ${SCHEMA}.boss_fence.last + 1 RETURNING last`, [command.scope])).rows[0]!.last);
      const at = this.time.now();
      const grant: Grant = { job_id: id!, holder: command.holder, token: String(token), acquired_at: String(at), expires_at: String(liveUntil(at, heartbeat)), heartbeat_s: heartbeat };
      await this.glue.query(`INSERT INTO ${SCHEMA}.boss_tokens (job_id, scope, holder, token, acquired_at, expires_at, heartbeat_s) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [grant.job_id, command.scope, grant.holder, token, at, grant.expires_at, heartbeat]);
      return { kind: 'Acquired', lease: leaseOf(command.scope, grant) };
    }
    if (fetched.length > 0) throw new Error(`queue ${name} handed out a job this store did not send last`);
    // Another job is active: take ours back out of the queue, so nobody fetches it later.
    if (id !== null) await this.boss.deleteJob(name, id);
    const active = await this.activeGrant(name);
    if (active === undefined) throw new Error(`queue ${name} has no active job, yet fetch returned none`);
    return { kind: 'Busy', holder: active.holder, token: Number(active.token), expiresAt: Number(active.expires_at) };
  }

  /** A live job's heartbeat (`touch`) extends its lease by its heartbeat from now. */
  private async renew(command: Extract<Command, { kind: 'Renew' }>, name: string): Promise<Outcome> {
    const grant = await this.grantOf(command.scope, command.holder, command.expectedToken);
    if (grant === undefined) return { kind: 'Stale', currentToken: await this.currentToken(name) };
    if (!(await this.isLive(grant.job_id)) || (await this.boss.touch(name, grant.job_id)).affected !== 1) return { kind: 'Expired' };
    const renewed = { ...grant, expires_at: String(liveUntil(this.time.now(), grant.heartbeat_s)) };
    await this.glue.query(`UPDATE ${SCHEMA}.boss_tokens SET expires_at = $2 WHERE job_id = $1`, [grant.job_id, renewed.expires_at]);
    return { kind: 'Renewed', lease: leaseOf(command.scope, renewed) };
  }

  private async mutate(command: Extract<Command, { kind: 'Mutate' }>, name: string): Promise<Outcome> {
    const { scope, aggregate, token, expectedVersion } = command;
    const grant = await this.grantOf(scope, command.holder, token);
    if (this.fenced && grant === undefined) return { kind: 'StaleFence', currentToken: await this.currentToken(name) };
    await this.glue.query(`INSERT INTO ${SCHEMA}.boss_versions (scope, aggregate, version) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [scope, aggregate]);
    const fence = this.fenced ? `AND EXISTS (SELECT 1 FROM ${SCHEMA}.job WHERE id::text = $4 AND ${LIVE})` : '';
    const values = this.fenced ? [scope, aggregate, expectedVersion, grant!.job_id] : [scope, aggregate, expectedVersion];
    const written = await this.glue.query<{ version: string }>(`UPDATE ${SCHEMA}.boss_versions SET version = version + 1 WHERE scope = $1 AND aggregate = $2 AND version = $3 ${fence} RETURNING version`, values);
    if (written.rowCount === 1) return { kind: 'Accepted', version: Number(written.rows[0]!.version), token };
    const version = Number((await this.glue.query<{ version: string }>(`SELECT version FROM ${SCHEMA}.boss_versions WHERE scope = $1 AND aggregate = $2`, [scope, aggregate])).rows[0]!.version);
    if (version !== expectedVersion) return { kind: 'StaleVersion', currentVersion: version };
    return { kind: 'StaleFence', currentToken: await this.currentToken(name) };
  }

  private async queue(scope: string): Promise<string> {
    const name = queueOf(scope);
    if (!this.queues.has(name)) {
      if ((await this.boss.getQueue(name)) === null) await this.boss.createQueue(name, { policy: 'singleton', retryLimit: 0 });
      this.queues.add(name);
    }
    return name;
  }

  /** The grant of the scope's active job, if any: pg-boss's job table says which job is active. */
  private async activeGrant(name: string): Promise<Grant | undefined> {
    return (await this.glue.query<Grant>(`SELECT t.* FROM ${SCHEMA}.boss_tokens t JOIN ${SCHEMA}.job j ON j.id::text = t.job_id WHERE j.name = $1 AND j.state = 'active'`, [name])).rows[0];
  }

  private async currentToken(name: string): Promise<number | null> {
    const active = await this.activeGrant(name);
    return active === undefined ? null : Number(active.token);
  }

  private async grantOf(scope: string, holder: string, token: number): Promise<Grant | undefined> {
    return (await this.glue.query<Grant>(`SELECT * FROM ${SCHEMA}.boss_tokens WHERE scope = $1 AND holder = $2 AND token = $3`, [scope, holder, token])).rows[0];
  }

  private async isLive(jobId: string): Promise<boolean> {
    return ((await this.glue.query(`SELECT 1 FROM ${SCHEMA}.job WHERE id::text = $1 AND ${LIVE}`, [jobId])).rowCount ?? 0) > 0;
  }
}

function leaseOf(scope: string, grant: Grant) {
  return { scope, holder: grant.holder, token: Number(grant.token), acquiredAt: Number(grant.acquired_at), expiresAt: Number(grant.expires_at) };
}
