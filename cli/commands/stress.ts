// `testbed stress`: many clients at once against one store for a while, each with a session of
// its own (on PostgreSQL, its own connection), then checks over the whole history
// (campaign/stress/). Exit 0 when no check found a violation, 1 on a violation (one line each),
// 2 on bad input, 3 when the store could not be opened or the run could not be judged.

import { backendOf } from '../../backends/index.ts';
import { randomInt } from 'node:crypto';
import pc from 'picocolors';
import type { Store, StoreOptions, TimeSource } from '../../adapters/port.ts';
import { inProcessAdapter } from '../../mutants/in-process.ts';
import { parseDuration, runStress, StressSetupError, type StressResult, type StressSessions, type StressTiming } from '../../campaign/stress/index.ts';
import { wallNow } from '../../campaign/stress/history.ts';
import { presentFields } from '../../campaign/present-fields.ts';
import { resolveAdapter, type ResolvedAdapter } from '../../backends/index.ts';
import { EXIT, UndecidedError, UsageError } from '../errors.ts';
import { printJson } from '../format.ts';
import { parseSeed } from '../seeds.ts';
import { shellWord } from '../../sim/run.ts';
import type { StressCommandOptions } from './stress-flags.ts';

const MAX_CLIENTS = 1024;
const MAX_DURATION_MS = 3_600_000;
/** Violations listed in the JSON document (all are counted). */
const JSON_VIOLATIONS = 1000;
/** Violations printed as lines (all are counted). */
const PRINTED_VIOLATIONS = 50;

/** Store time for stores without a clock of their own: the wall clock, in integer ms. */
const wallClock: TimeSource = { now: () => Math.floor(wallNow()) };

/**
 * The clients' sessions: on PostgreSQL one store per client over one schema, each on its own
 * connection; on any other store one store shared by every client, with every client's calls in
 * flight at once (a store with a connection pool runs them in sessions of their own).
 */
function opener(adapter: ResolvedAdapter, time: StoreOptions['time']): (clients: number) => Promise<StressSessions> {
  const { sessions } = adapter;
  if (sessions !== undefined) {
    return async (clients) => {
      const stores = await sessions({ time }, clients);
      return { stores, close: async () => void (await Promise.allSettled(stores.map((s) => s.close()))) };
    };
  }
  return async (clients) => {
    const store: Store = await adapter.store.factory({ time });
    return { stores: Array.from({ length: clients }, () => store), close: () => store.close() };
  };
}

/**
 * Store times follow the order of the store's decisions when it reads its own clock (the
 * database's, read while it decides) or decides atomically in this process (memory and the
 * built-in mutants). A store module handed the wall clock may read it before it takes its locks:
 * its leases are judged in real time instead (campaign/stress/checks/index.ts).
 */
function timingOf(spec: string, time: StoreOptions['time']): StressTiming {
  return time === 'database' || inProcessAdapter(spec) !== null ? 'store' : 'real';
}

export async function stressCommand(options: StressCommandOptions): Promise<void> {
  const clients = Number(options.clients);
  if (!/^\d+$/.test(options.clients) || clients < 1 || clients > MAX_CLIENTS) throw new UsageError(`bad --clients "${options.clients}": expected an integer in 1..${MAX_CLIENTS}`);
  const durationMs = parseDuration(options.duration);
  if (durationMs === null || durationMs < 1 || durationMs > MAX_DURATION_MS) {
    throw new UsageError(`bad --duration "${options.duration}": expected for example 30s, 500ms or 2m (at most 1 hour)`);
  }
  const seed = options.seed === undefined ? randomInt(1, 2 ** 31) : parseSeed(options.seed);
  const clock = options.time ?? (backendOf(options.adapter)?.databaseClock === true ? 'database' : 'wall');
  if (clock !== 'database' && clock !== 'wall') throw new UsageError(`bad --time "${options.time}": expected database or wall`);
  if (clock === 'database' && inProcessAdapter(options.adapter) !== null) throw new UsageError(`--time database: ${options.adapter} has no database clock`);
  const time: StoreOptions['time'] = clock === 'database' ? 'database' : wallClock;
  const adapter = await resolveAdapter(options.adapter);
  if (!options.json) process.stderr.write(pc.dim(`stress: ${clients} clients for ${durationMs} ms on ${adapter.name} (${clock} clock), seed ${seed}\n`));
  let result: StressResult;
  try {
    result = await runStress({ clients, durationMs, seed, timing: timingOf(options.adapter, time), open: opener(adapter, time) });
  } catch (error) {
    if (error instanceof StressSetupError) throw new UndecidedError(`stress on ${adapter.name}: ${error.message.split('\n')[0]}`, { cause: error });
    throw error;
  } finally {
    await adapter.close();
  }
  const decided = result.undecided.length === 0 && result.errors.length === 0 && result.byStatus.ok > 0;
  // Free-running clients are not replayed exactly: the same line gives the same clients, choices
  // and world, and the interleaving the machine produces.
  const rerun = `npx testbed stress --adapter ${shellWord(options.adapter)} --clients ${clients} --duration ${options.duration} --seed ${seed} --time ${clock}`;
  if (options.json) printJson({ ...jsonOf(adapter.name, clock, result), rerun });
  else printText(adapter.name, result);
  if (!options.json && result.violations.length > 0) process.stdout.write(`rerun (same clients and choices, not the same interleaving): ${rerun}\n`);
  if (result.violations.length > 0) process.exitCode = EXIT.violation;
  else if (!decided) process.exitCode = EXIT.undecided;
  else process.exitCode = EXIT.ok;
}

function jsonOf(adapter: string, clock: string, r: StressResult) {
  const listed = r.violations.slice(0, JSON_VIOLATIONS);
  const ids = new Set(listed.flatMap((v) => v.operations));
  return {
    adapter,
    clock,
    clients: r.clients,
    seed: r.seed,
    durationMs: r.durationMs,
    elapsedMs: Math.round(r.elapsedMs),
    operations: r.operations,
    throughput: Math.round(r.throughput),
    byStatus: r.byStatus,
    byKind: r.byKind,
    violationCount: r.violations.length,
    violationsByInvariant: countBy(r.violations.map((v) => v.invariant)),
    violations: listed,
    // The operations the listed violations name, with their real times (wall-clock ms).
    operationsNamed: r.history
      .filter((op) => ids.has(op.id))
      .map((op) => ({
        id: op.id,
        client: op.client,
        command: op.command,
        status: op.status,
        ...presentFields({ outcome: op.outcome, error: op.error }),
        invokedAt: Math.round(op.invokedAt * 1000) / 1000,
        completedAt: Math.round(op.completedAt * 1000) / 1000,
      })),
    undecided: r.undecided,
    errors: r.errors,
    fencing: r.fencing,
    unjudged: r.unjudged,
  };
}

function countBy(names: ReadonlyArray<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

function printText(adapter: string, r: StressResult): void {
  const status = `${r.byStatus.ok} ok, ${r.byStatus.fail} unavailable, ${r.byStatus.unknown} unknown, ${r.byStatus.error} errors`;
  process.stdout.write(`${r.operations} operations by ${r.clients} clients in ${(r.elapsedMs / 1000).toFixed(1)} s on ${adapter} (${Math.round(r.throughput)} ops/s; ${status})\n`);
  for (const v of r.violations.slice(0, PRINTED_VIOLATIONS)) process.stdout.write(`${pc.red(v.invariant)}: ${v.message}\n`);
  if (r.violations.length > PRINTED_VIOLATIONS) process.stdout.write(`... and ${r.violations.length - PRINTED_VIOLATIONS} more (--json lists up to ${JSON_VIOLATIONS})\n`);
  for (const reason of r.undecided) process.stdout.write(`${pc.yellow('could not check')} ${reason}\n`);
  for (const error of r.errors) process.stdout.write(`${pc.yellow('store error')} ${error}\n`);
  for (const { invariant, why } of r.unjudged) process.stdout.write(`${pc.yellow('not judged')} (capabilities.fencing '${r.fencing}') ${invariant}: ${why}\n`);
  const verdict = r.violations.length > 0 ? pc.red(`${r.violations.length} violations`) : pc.green('no violation');
  process.stdout.write(`${verdict} (seed ${r.seed})\n`);
}
