// The statement gate of controlled interleaving: it runs a batch of store calls of different
// sessions at once and decides, one unit at a time, which session's held statement reaches the
// server next (docs/ARCHITECTURE.md "Controlled interleaving").
//
// After each release the gate waits until the batch is quiet: every released unit has been
// answered or is blocked on a lock, and every call still running has its next unit held at the
// wire. Blocked means waiting for a heavyweight lock (row, transaction id, advisory, relation)
// that another session of the batch holds, read from the server's own pg_blocking_pids on a side
// connection (a wait on a backend outside the batch, such as autovacuum, ends by itself and is
// waited out): a lock is marked granted by the
// backend that releases it, before that backend answers, so a waiter woken by a COMMIT is never
// mistaken for a blocked one. Only then is the next choice made, among the sessions with a held
// unit, so the choices, the server's answers and the order in which calls finish depend on the
// seed (within the limits docs/ARCHITECTURE.md names). Calls are reported in the order they finished, ties (calls finishing after the same
// release) broken by session order.
//
// While a statement is blocked, only the sessions blocking it (pg_blocking_pids) may go, so one
// release never wakes two waiters of one lock: which of them went first would be the server's
// choice. When every unit left is blocked in a lock cycle, the gate breaks the cycle itself: the
// session connections run with a `deadlock_timeout` far beyond any batch (CYCLE_PARAMETERS, where
// the server lets the user set it), so the server's detector, whose victim would depend on which
// backend's timer fires first, never acts; the gate cancels, among the statements on the cycle,
// the one it released first (a function of the schedule alone), and its store gets the deadlock
// error (wire-proxy.ts). Where the user may not set it, the server's detector decides, as before.
//
// With scheduling points inside functions (point-control.ts), a session waiting at a yield is a
// candidate too: choosing it lets it run on to its next yield, a lock, or its answer.

import pg from 'pg';
import { CLOCK_SESSION, type Chooser } from '../../interleaving.ts';
import type { WaitingPoint } from './function-points.ts';
import type { InstrumentationSummary, PointControl } from './point-control.ts';
import type { Lane, SessionProxy } from './wire-proxy.ts';
import { STALL_MS } from './stall.ts';

export interface GateCall<T> {
  readonly session: string;
  /** Store time at which the call reached the database: none of its units goes before. */
  readonly arrivedAt: number;
  run(): Promise<T>;
}

/** Store time during a batch: the instants it takes, ascending, and how the server is told. */
export interface GateClock {
  readonly times: ReadonlyArray<number>;
  set(ms: number): Promise<void>;
}

export interface GateResult<T> {
  /** Every call's result, in the order the calls finished, with the store times it ran through. */
  readonly settled: ReadonlyArray<{ readonly call: number; readonly result: PromiseSettledResult<T>; readonly storeTimes: ReadonlyArray<number> }>;
  /** The session of each step, in order: `s1` for a statement released, `s1@12` for a step past point 12 inside a function. */
  readonly schedule: ReadonlyArray<string>;
  /** Functions instrumented (or found impossible to) before this batch, when any were new. */
  readonly instrumented?: InstrumentationSummary;
}

/** A session that can take a step: its next statement is held at the wire, or it waits at a point inside a function. */
interface Candidate {
  readonly lane: Lane;
  readonly at: WaitingPoint | null;
}

/** How often a running unit is looked up in pg_locks while the batch is not quiet. */
const PROBE_MS = 2;

/** Start-up parameters of the session connections when the gate breaks lock cycles itself. */
export const CYCLE_PARAMETERS: ReadonlyArray<readonly [string, string]> = [['deadlock_timeout', '10min']];

/** Whether the server lets this user set CYCLE_PARAMETERS (deadlock_timeout needs the privilege to set it). */
export async function mayBreakCycles(probe: pg.Client): Promise<boolean> {
  try {
    await probe.query(`SET deadlock_timeout = '${CYCLE_PARAMETERS[0]![1]}'`);
    await probe.query('RESET deadlock_timeout');
    return true;
  } catch {
    return false;
  }
}

export class InterleavingStalledError extends Error {
  override readonly name = 'InterleavingStalledError';
}

export class StatementGate {
  private wake: (() => void) | null = null;
  private order = new Map<string, number>();
  private proxies: ReadonlyMap<string, SessionProxy> = new Map();
  /** Outside a batch every unit passes at once (connecting, warming up, closing). */
  private inBatch = false;
  private releases = 0;

  /**
   * `breaksCycles`: the session connections carry CYCLE_PARAMETERS, so lock cycles are the gate's
   * to break. `points`: the hold on the yields inside the schema's functions (null: a call of a
   * function is one step).
   */
  constructor(
    private readonly probe: pg.Client,
    private readonly breaksCycles = false,
    private readonly points: PointControl | null = null,
  ) {}

  /** The sessions' proxies, in session order (the order ties are broken in). */
  attach(proxies: ReadonlyMap<string, SessionProxy>): void {
    this.proxies = proxies;
    this.order = new Map([...proxies.keys()].map((session, i) => [session, i]));
  }

  /** Any lane changed: a unit arrived or was answered, a connection closed. */
  readonly changed = (): void => {
    if (!this.inBatch) {
      for (const proxy of this.proxies.values()) for (const lane of proxy.lanes) if (!lane.closed && !lane.running && lane.held.length > 0) lane.release(++this.releases);
    }
    const wake = this.wake;
    this.wake = null;
    wake?.();
  };

  /** With a clock, store time passes during the batch (adapters/interleaving.ts `passingTime`). */
  async runBatch<T>(calls: ReadonlyArray<GateCall<T>>, choose: Chooser | null, clock: GateClock): Promise<GateResult<T>> {
    // Free-running holds nothing, so store time cannot pass between statements: it is the batch's end.
    const first = choose === null ? clock.times[clock.times.length - 1]! : clock.times[0]!;
    await clock.set(first);
    if (choose === null) return this.freeRunning(calls, first);
    if (this.inBatch) throw new Error('one batch at a time');
    this.inBatch = true;
    try {
      const instrumented = (await this.points?.instrument()) ?? null;
      const result = await this.interleave(calls, choose, clock);
      return instrumented === null ? result : { ...result, instrumented };
    } finally {
      await this.points?.releaseAll();
      this.inBatch = false;
      this.changed();
    }
  }

  private async interleave<T>(calls: ReadonlyArray<GateCall<T>>, choose: Chooser, clock: GateClock): Promise<GateResult<T>> {
    const finished: Array<{ call: number; step: number; result: PromiseSettledResult<T>; storeTimes: ReadonlyArray<number> }> = [];
    const schedule: string[] = [];
    const active = new Set(calls.map((call) => call.session));
    if (active.size !== calls.length) throw new Error('a batch holds at most one call per session');
    let tick = 0;
    /** Per session, the clock indexes at which a unit of its call ran: the only times it can have read. */
    const ran = new Map(calls.map((call) => [call.session, new Set<number>()]));
    const arrived = new Map(calls.map((call) => [call.session, call.arrivedAt]));
    calls.forEach((call, i) => {
      const settle = (result: PromiseSettledResult<T>): void => {
        const ticks = ran.get(call.session)!.size === 0 ? [tick] : [...ran.get(call.session)!].sort((a, b) => a - b);
        this.finish(finished, active, call.session, { call: i, step: schedule.length, result, storeTimes: ticks.map((t) => clock.times[t]!) });
      };
      call.run().then(
        (value) => settle({ status: 'fulfilled', value }),
        (reason: unknown) => settle({ status: 'rejected', reason }),
      );
    });
    for (;;) {
      await this.quiet(active);
      if (active.size === 0) break;
      const now = clock.times[tick]!;
      // A call that has not reached the database yet by store time sends nothing.
      const runnable = await this.candidates(active);
      const candidates = runnable.filter((c) => arrived.get(c.lane.session)! <= now);
      const names = candidates.map((c) => c.lane.session);
      if (tick < clock.times.length - 1) names.push(CLOCK_SESSION);
      if (names.length === 0) {
        // Every unit left is blocked: a lock cycle, broken here or by the server's deadlock detector.
        // A cycle the gate broke is followed up by looking again (quiet() reads the lanes' state).
        if (this.breaksCycles && (await this.breakCycle())) continue;
        await this.nextChange(STALL_MS, 'every statement of the batch is blocked on a lock and none was released');
        continue;
      }
      const steps: Array<string | null> = candidates.map((c) => (c.at === null ? c.lane.heldSql() : null));
      if (names.length > steps.length) steps.push(null);
      const chosen = choose(names, steps);
      const picked = candidates[chosen];
      schedule.push(picked?.at?.point == null ? names[chosen]! : `${names[chosen]!}@${picked.at.point}`);
      if (picked === undefined) {
        tick++;
        await clock.set(clock.times[tick]!);
        // A unit blocked on a lock while the clock moved on may read the new time when it wakes.
        for (const session of active) if (this.proxies.get(session)?.lanes.some((l) => !l.closed && l.running)) ran.get(session)!.add(tick);
        continue;
      }
      ran.get(picked.lane.session)!.add(tick);
      await this.go(picked);
    }
    finished.sort((x, y) => x.step - y.step || this.order.get(calls[x.call]!.session)! - this.order.get(calls[y.call]!.session)!);
    return { settled: finished.map(({ call, result, storeTimes }) => ({ call, result, storeTimes })), schedule };
  }

  /** Free-running: every statement passes as it comes, and the calls are reported as they finish. */
  private async freeRunning<T>(calls: ReadonlyArray<GateCall<T>>, now: number): Promise<GateResult<T>> {
    const settled: Array<{ call: number; result: PromiseSettledResult<T>; storeTimes: ReadonlyArray<number> }> = [];
    const storeTimes = [now];
    await Promise.all(
      calls.map((call, i) =>
        call.run().then(
          (value) => void settled.push({ call: i, result: { status: 'fulfilled', value }, storeTimes }),
          (reason: unknown) => void settled.push({ call: i, result: { status: 'rejected', reason }, storeTimes }),
        ),
      ),
    );
    return { settled, schedule: [] };
  }

  private finish<T, E>(finished: E[], active: Set<string>, session: string, entry: E): void {
    finished.push(entry);
    active.delete(session);
    this.changed();
  }

  /**
   * The lanes whose unit may go next. While a statement is blocked, only the sessions that block
   * it may go (when they have a unit held): its blocker then runs on to the end of its
   * transaction, and the one release that frees the lock wakes that one waiter. Were a second
   * statement let in to queue behind the same lock, one release would wake both, and the server,
   * not the seed, would decide which goes first.
   */
  private async candidates(active: ReadonlySet<string>): Promise<Candidate[]> {
    const running = [...this.proxies.values()].flatMap((proxy) => proxy.lanes.filter((l) => !l.closed && l.running));
    const points = this.points === null ? new Map<number, WaitingPoint>() : await this.points.waiting(running.map((l) => l.pid));
    const atPoint = running.filter((l) => active.has(l.session) && points.has(l.pid)).map((lane) => ({ lane, at: points.get(lane.pid)! }));
    const runnable = [...this.heldLanes(active).map((lane) => ({ lane, at: null })), ...atPoint].sort((x, y) => this.order.get(x.lane.session)! - this.order.get(y.lane.session)!);
    // A session waiting at a yield waits for the gate, not for another session.
    const blocked = running.filter((l) => !points.has(l.pid));
    if (blocked.length === 0 || runnable.length === 0) return runnable;
    const result = await this.probe.query<{ blocker: number }>('SELECT DISTINCT unnest(pg_blocking_pids(pid)) AS blocker FROM unnest($1::int[]) AS pid', [blocked.map((l) => l.pid)]);
    const blockers = new Set(result.rows.map((r) => r.blocker));
    const preferred = runnable.filter((c) => blockers.has(c.lane.pid));
    return preferred.length > 0 ? preferred : runnable;
  }

  /** One step of the chosen session: its held statement reaches the server (its first yield held), or it runs on past its yield. */
  private async go(candidate: Candidate): Promise<void> {
    const { lane, at } = candidate;
    if (at !== null) {
      await this.points!.step(lane.pid, at.step);
      return;
    }
    await this.points?.arm(lane.pid);
    lane.release(++this.releases);
  }

  /**
   * Every running statement waits on a lock: cancels the one, among those on a cycle of the
   * wait-for graph (pg_blocking_pids), whose client statement the gate released first; its lane
   * answers it as a deadlock.
   * Waits that end outside the batch's statements (a lock held elsewhere) are left alone.
   */
  private async breakCycle(): Promise<boolean> {
    const blocked = [...this.proxies.values()].flatMap((proxy) => proxy.lanes.filter((l) => !l.closed && l.running));
    if (blocked.length === 0) return false;
    // A victim whose cancel has not come back yet: the cycle is being broken; look again soon.
    if (blocked.some((lane) => lane.cancelling)) {
      await this.nextChange(PROBE_MS, '');
      return true;
    }
    const result = await this.probe.query<{ pid: number; blockers: number[] }>('SELECT pid, pg_blocking_pids(pid) AS blockers FROM unnest($1::int[]) AS pid', [blocked.map((l) => l.pid)]);
    const waitsFor = new Map(result.rows.map((r) => [r.pid, r.blockers]));
    const onCycle = blocked.filter((lane) => reaches(waitsFor, lane.pid, lane.pid));
    if (onCycle.length === 0) return false;
    const victim = onCycle.reduce((a, b) => (b.releasedAt < a.releasedAt ? b : a));
    victim.armAsDeadlockVictim();
    await this.probe.query('SELECT pg_cancel_backend($1)', [victim.pid]);
    return true;
  }

  /** The first lane with a held unit of each active session, in session order. */
  private heldLanes(active: ReadonlySet<string>): Lane[] {
    const lanes: Lane[] = [];
    for (const [session, proxy] of this.proxies) {
      if (!active.has(session)) continue;
      const lane = proxy.lanes.find((l) => !l.closed && l.held.length > 0 && !l.running);
      if (lane !== undefined) lanes.push(lane);
    }
    return lanes;
  }

  /** Waits until no released unit is running unblocked and every active call has a unit held or blocked. */
  private async quiet(active: ReadonlySet<string>): Promise<void> {
    const started = Date.now();
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const running: Lane[] = [];
      let thinking = false;
      for (const [session, proxy] of this.proxies) {
        const open = proxy.lanes.filter((l) => !l.closed);
        const busy = open.filter((l) => l.running || l.held.length > 0);
        // Two connections of one session at work at once would be ordered by timing, not by the seed.
        if (busy.length > 1) throw new InterleavingStalledError(`the store of ${session} sent statements on ${busy.length} connections at once: under --interleave a session must use one connection at a time`);
        running.push(...open.filter((l) => l.running));
        if (active.has(session) && busy.length === 0) thinking = true;
      }
      if (running.length === 0 && !thinking) return;
      if (!thinking && (await this.allBlocked(running))) return;
      if (Date.now() - started > STALL_MS) throw new InterleavingStalledError(`a statement ran for more than ${STALL_MS / 1000} s without finishing or waiting on a lock`);
      await this.nextChange(PROBE_MS, '');
    }
  }

  /**
   * Whether every running unit waits on a lock that a session of the batch (or the scheduler of
   * the points inside functions) holds. A wait on anything else (autovacuum truncating a table,
   * another client) ends by itself, at a moment no schedule decides: the unit is still running.
   */
  private async allBlocked(running: ReadonlyArray<Lane>): Promise<boolean> {
    const pids = running.map((l) => l.pid);
    const result = await this.probe.query<{ pid: number; blockers: number[] }>('SELECT pid, pg_blocking_pids(pid) AS blockers FROM unnest($1::int[]) AS pid', [pids]);
    const ours = new Set([...this.proxies.values()].flatMap((proxy) => proxy.lanes.filter((l) => !l.closed).map((l) => l.pid)));
    if (this.points !== null) ours.add(this.points.backendPid);
    const waiting = new Set(result.rows.filter((r) => r.blockers.some((b) => ours.has(b))).map((r) => r.pid));
    // A unit answered while the probe ran is no longer running: look again.
    return running.every((l) => l.running && waiting.has(l.pid));
  }

  /** Resolves on the next lane change, or after `ms` (then fails with `stalled` when it is not empty). */
  private nextChange(ms: number, stalled: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.wake = null;
        if (stalled === '') resolve();
        else reject(new InterleavingStalledError(stalled));
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Whether `to` is reachable from `from` in the wait-for graph by one step or more. */
function reaches(waitsFor: ReadonlyMap<number, ReadonlyArray<number>>, from: number, to: number): boolean {
  const seen = new Set<number>();
  const stack = [...(waitsFor.get(from) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (pid === to) return true;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(waitsFor.get(pid) ?? []));
  }
  return false;
}
