// PostgreSQL lease throughput against the raw transaction rate of the same server (docs/ARCHITECTURE.md
// "Performance targets": acquire/release cycles at 50% or more of a plain single-row update loop
// on the same number of connections).
//
// One embedded server (or DATABASE_URL) is started for the measurement. Each round runs, one
// after the other on the same server:
//   (a) `connections` workers, each looping Acquire + Release on its own scope through the
//       PostgreSQL store (database time, a pool of `connections` connections);
//   (b) `connections` workers, each looping a prepared single-row autocommit
//       `UPDATE ... SET n = n + 1 WHERE id = $1` on its own row, over `connections` connections;
//   (c) the same workers doing two such updates per cycle on a row keyed by the scope's text
//       name: what a cycle would cost if Acquire and Release were one plain update each. It is
//       the ceiling of any lease design that keeps two commands per cycle, and by construction
//       sits near 50% of (b); the distance between (a) and (c) is what the lease logic costs.
// Every worker owns its scope or row, so neither side measures lock contention. Rounds alternate
// (a)/(b) so that drift of the machine affects both alike; the result is the median of the
// rounds. Nothing is printed here.

import pg from 'pg';
import { startPostgres } from '../adapters/postgres/harness.ts';
import { createPostgresStore } from '../adapters/postgres/store.ts';

export interface PostgresThroughputOptions {
  /** Connections (and concurrent workers) on each side. */
  readonly connections: number;
  /** Length of each timed phase of a round. */
  readonly durationMs: number;
  /** Interleaved rounds; the reported figures are their medians. */
  readonly rounds: number;
  /** The store's one-statement path for Acquire/Release (default true; false measures the multi-statement path). */
  readonly fastPath?: boolean;
}

export interface PostgresThroughputSample {
  readonly acquireReleasePerSecond: number;
  readonly rawUpdatePerSecond: number;
  readonly ratio: number;
  /** Cycles of two single-row updates (text key) per second: side (c). */
  readonly twoUpdatesPerSecond: number;
}

export interface PostgresThroughputResult {
  /** Median over rounds of acquire+release cycles per second. */
  readonly acquireReleasePerSecond: number;
  /** Median over rounds of single-row UPDATE transactions per second. */
  readonly rawUpdatePerSecond: number;
  /** Median over rounds of the per-round ratio cycles/updates. */
  readonly ratio: number;
  /** Median over rounds of two-update cycles per second (side (c)). */
  readonly twoUpdatesPerSecond: number;
  /** Median over rounds of the per-round ratio two-update cycles/updates: the ceiling of `ratio`. */
  readonly ceilingRatio: number;
  readonly samples: ReadonlyArray<PostgresThroughputSample>;
}

function median(values: ReadonlyArray<number>): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Run `worker(i)` on `count` workers until `durationMs` has passed; operations per second. */
async function timed(count: number, durationMs: number, worker: (i: number) => Promise<void>): Promise<number> {
  let done = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    [...Array(count)].map(async (_, i) => {
      while (performance.now() < deadline) {
        await worker(i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

export async function measurePostgresThroughput(options: PostgresThroughputOptions): Promise<PostgresThroughputResult> {
  const { connections, durationMs, rounds } = options;
  if (!Number.isInteger(connections) || connections < 1) throw new Error('connections must be a positive integer');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('rounds must be a positive integer');
  const server = await startPostgres();
  const schema = server.schema;
  const store = await createPostgresStore({
    time: 'database',
    connectionString: server.connectionString,
    schema,
    poolSize: connections,
    fastPath: options.fastPath ?? true,
  });
  const raw = new pg.Pool({ connectionString: server.connectionString, options: `-c search_path=${schema}`, max: connections });
  raw.on('error', () => undefined);
  try {
    await raw.query('CREATE TABLE bench_row (id integer PRIMARY KEY, n bigint NOT NULL)');
    await raw.query('INSERT INTO bench_row (id, n) SELECT i, 0 FROM generate_series(0, $1::int - 1) i', [connections]);
    await raw.query('CREATE TABLE bench_scope (scope text PRIMARY KEY, n bigint NOT NULL)');
    await raw.query(`INSERT INTO bench_scope (scope, n) SELECT 'bench-' || i, 0 FROM generate_series(0, $1::int - 1) i`, [connections]);
    const update = (i: number) => raw.query({ name: 'bench_update', text: 'UPDATE bench_row SET n = n + 1 WHERE id = $1', values: [i] }).then(() => undefined);
    const scopeUpdate = { name: 'bench_scope_update', text: 'UPDATE bench_scope SET n = n + 1 WHERE scope = $1' };
    const twoUpdates = async (i: number) => {
      await raw.query({ ...scopeUpdate, values: [`bench-${i}`] });
      await raw.query({ ...scopeUpdate, values: [`bench-${i}`] });
    };
    const cycle = async (i: number) => {
      const scope = `bench-${i}`;
      const holder = `worker-${i}`;
      const got = await store.execute({ kind: 'Acquire', scope, holder, ttlMs: 60_000 });
      if (got.kind !== 'Acquired') throw new Error(`acquire on an uncontended scope answered ${got.kind}`);
      const released = await store.execute({ kind: 'Release', scope, holder, token: got.lease.token });
      if (released.kind !== 'Released') throw new Error(`release of a held lease answered ${released.kind}`);
    };
    // Warm-up: every connection opened, every statement prepared, caches filled.
    const warm = Math.min(500, Math.max(100, durationMs / 4));
    await timed(connections, warm, cycle);
    await timed(connections, warm, update);
    await timed(connections, warm, twoUpdates);
    const samples: PostgresThroughputSample[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which side goes first, so neither always runs on a freshly vacuumed table.
      let acquireReleasePerSecond: number;
      let rawUpdatePerSecond: number;
      if (round % 2 === 0) {
        acquireReleasePerSecond = await timed(connections, durationMs, cycle);
        rawUpdatePerSecond = await timed(connections, durationMs, update);
      } else {
        rawUpdatePerSecond = await timed(connections, durationMs, update);
        acquireReleasePerSecond = await timed(connections, durationMs, cycle);
      }
      const twoUpdatesPerSecond = await timed(connections, durationMs, twoUpdates);
      samples.push({ acquireReleasePerSecond, rawUpdatePerSecond, ratio: acquireReleasePerSecond / rawUpdatePerSecond, twoUpdatesPerSecond });
    }
    return {
      acquireReleasePerSecond: median(samples.map((s) => s.acquireReleasePerSecond)),
      rawUpdatePerSecond: median(samples.map((s) => s.rawUpdatePerSecond)),
      ratio: median(samples.map((s) => s.ratio)),
      twoUpdatesPerSecond: median(samples.map((s) => s.twoUpdatesPerSecond)),
      ceilingRatio: median(samples.map((s) => s.twoUpdatesPerSecond / s.rawUpdatePerSecond)),
      samples,
    };
  } finally {
    await raw.end().catch(() => undefined);
    await store.close().catch(() => undefined);
    await server.stop();
  }
}
