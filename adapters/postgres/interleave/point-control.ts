// The statement gate's hold on the scheduling points inside server-side functions
// (function-points.ts): a scheduler connection of its own holds, for every session backend whose
// statement the gate lets go, the key of its first yield, and moves it on one yield at a time
// when the chooser picks a session waiting at a point. Outside a batch it holds nothing, so every
// yield passes at once. The functions of the run's schema are instrumented before the first batch
// and again whenever the schema gains a PL/pgSQL function that has no yields yet (a store module
// that creates its functions on its first call).

import pg from 'pg';
import { STALL_MS } from './stall.ts';
import { holdPoint, instrumentFunctions, releasePoint, waitingPoints, YIELD_FUNCTION, type WaitingPoint } from './function-points.ts';

export interface InstrumentationSummary {
  /** Functions instrumented, with how many points each. */
  readonly functions: ReadonlyArray<{ readonly signature: string; readonly points: number }>;
  /** Functions that could not be instrumented, each with the reason. */
  readonly skipped: ReadonlyArray<{ readonly signature: string; readonly reason: string }>;
}

const UNINSTRUMENTED_SQL = `SELECT p.proname || '(' || pg_catalog.pg_get_function_identity_arguments(p.oid) || ')' AS signature FROM pg_catalog.pg_proc p
  JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace JOIN pg_catalog.pg_language l ON l.oid = p.prolang
 WHERE n.nspname = $1 AND l.lanname = 'plpgsql' AND p.proname <> '${YIELD_FUNCTION}' AND strpos(p.prosrc, '${YIELD_FUNCTION}') = 0`;

export class PointControl {
  /** Per session backend, the step whose key the scheduler holds. */
  private readonly held = new Map<number, number>();
  /** Signatures already reported as skipped: a function that cannot be instrumented is asked about once. */
  private readonly skipped = new Set<string>();

  private constructor(
    private readonly scheduler: pg.Client,
    private readonly schema: string,
  ) {}

  static async open(connectionString: string, schema: string): Promise<PointControl> {
    const scheduler = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
    scheduler.on('error', () => undefined);
    await scheduler.connect();
    // A key held elsewhere fails the batch (as a stalled one does) rather than wait for ever.
    await scheduler.query(`SET lock_timeout = '${STALL_MS}ms'`);
    return new PointControl(scheduler, schema);
  }

  /** Instruments the schema's functions that have no yields yet; null when there were none (or none new to report). */
  async instrument(): Promise<InstrumentationSummary | null> {
    const { rows } = await this.scheduler.query<{ signature: string }>(UNINSTRUMENTED_SQL, [this.schema]);
    if (rows.every((row) => this.skipped.has(row.signature))) return null;
    const done = await instrumentFunctions(this.scheduler, this.schema);
    const fresh = done.skipped.filter((s) => !this.skipped.has(s.signature) && !s.reason.startsWith('already instrumented'));
    for (const s of fresh) this.skipped.add(s.signature);
    if (done.functions.length === 0 && fresh.length === 0) return null;
    return {
      functions: done.functions.map((f) => ({ signature: f.signature, points: f.points })),
      skipped: fresh.map((s) => ({ signature: s.signature, reason: s.reason })),
    };
  }

  /** The scheduler connection's backend: sessions waiting at a yield wait on its locks. */
  get backendPid(): number {
    return (this.scheduler as unknown as { processID: number }).processID;
  }

  /** Before a statement of `pid` goes: its first yield will wait (and nothing later of an earlier statement is held). */
  async arm(pid: number): Promise<void> {
    const step = this.held.get(pid);
    if (step === 1) return;
    await holdPoint(this.scheduler, pid, 1);
    if (step !== undefined) await releasePoint(this.scheduler, pid, step);
    this.held.set(pid, 1);
  }

  /** The session backends among `pids` waiting at a yield now. */
  waiting(pids: ReadonlyArray<number>): Promise<Map<number, WaitingPoint>> {
    return pids.length === 0 ? Promise.resolve(new Map()) : waitingPoints(this.scheduler, pids);
  }

  /** Lets the backend waiting at its yield `step` run on to its next yield (held), a lock, or the end of its statement. */
  async step(pid: number, step: number): Promise<void> {
    await holdPoint(this.scheduler, pid, step + 1);
    await releasePoint(this.scheduler, pid, step);
    this.held.set(pid, step + 1);
  }

  /** The batch is over: every yield passes again. */
  async releaseAll(): Promise<void> {
    if (this.held.size === 0) return;
    this.held.clear();
    await this.scheduler.query('SELECT pg_catalog.pg_advisory_unlock_all()');
  }

  async close(): Promise<void> {
    await this.scheduler.end().catch(() => undefined);
  }
}
