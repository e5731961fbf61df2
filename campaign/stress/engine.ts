// `testbed stress`: many clients at once against one store, each in a session of its own, for a
// while; then the whole history is checked (checks/). Clients, their choices and the world come
// from the seed; the interleaving is whatever really happened, so a run is not replayed exactly:
// the same seed and store give the same kind of run, not the same history. A store whose fences
// are not integers is used behind the simulator's translation (sim/fence-ids.ts), one for all its
// sessions, and judged on what its fences allow (checks/index.ts).

import type { Command } from '../../model/commands.ts';
import { OutcomeUnknownError, StoreUnavailableError, type Store } from '../../adapters/port.ts';
import { fenceIdsFor, fencingOf, withFenceIds, type FencingKind } from '../../sim/fence-ids.ts';
import { streamFor } from '../../sim/prng.ts';
import { checkStressHistory, type StressTiming, type StressUnjudged } from './checks/index.ts';
import { canStress, runClient, supportsOf } from './client.ts';
import { HistoryRecorder, wallNow, type OpStatus, type StressHistory } from './history.ts';
import { violation, type StressViolation } from './violation.ts';
import { PORT_CONTRACT } from '../../sim/port-contract.ts';
import { stressWorld, type StressWorld } from './world.ts';

/** The stores the clients use: one per client (its own session), or one shared by all. */
export interface StressSessions {
  /** `stores[i]` is client i's store; entries may repeat (a store shared by several clients). */
  readonly stores: ReadonlyArray<Store>;
  close(): Promise<void>;
}

export interface StressOptions {
  readonly clients: number;
  readonly durationMs: number;
  readonly seed: number;
  /** How far the store's times can be trusted (checks/index.ts). Default 'store'. */
  readonly timing?: StressTiming;
  /** Opens the sessions of `clients` clients onto one fresh store. */
  open(clients: number): Promise<StressSessions>;
}

export interface StressResult {
  readonly seed: number;
  readonly clients: number;
  readonly durationMs: number;
  /** How long the clients really ran (the last workflows finish after the deadline). */
  readonly elapsedMs: number;
  readonly world: StressWorld;
  readonly history: StressHistory;
  readonly operations: number;
  /** Operations per second of elapsed time. */
  readonly throughput: number;
  readonly byStatus: Readonly<Record<OpStatus, number>>;
  readonly byKind: Readonly<Partial<Record<Command['kind'], number>>>;
  readonly violations: ReadonlyArray<StressViolation>;
  /** Checks that could not decide. */
  readonly undecided: ReadonlyArray<string>;
  /** The first few errors the store threw that the port does not define. */
  readonly errors: ReadonlyArray<string>;
  /** What fenced the store's leases, and what the checks could not judge because of it. */
  readonly fencing: FencingKind;
  readonly unjudged: ReadonlyArray<StressUnjudged>;
}

/** Thrown when the store could not be opened or set up: the run could not start. */
export class StressSetupError extends Error {
  override readonly name = 'StressSetupError';
}

/**
 * The clients' stores as the checks see them: a store whose fences are not integers behind one
 * translation for every session, since a fence one session is given names the same grant in all.
 */
function behindFenceIds(stores: ReadonlyArray<Store>): ReadonlyArray<Store> {
  const ids = fenceIdsFor(stores[0]!);
  if (ids === null) return stores;
  const seen = new Map<Store, Store>();
  return stores.map((store) => {
    const known = seen.get(store) ?? withFenceIds(store, ids);
    seen.set(store, known);
    return known;
  });
}

/** A call that changes nothing, of a kind the store has (there is no such waiter, lease or scope); null when it has none. */
function warmUpCommand(supports: (kind: Command['kind']) => boolean): Command | null {
  const candidates: ReadonlyArray<Command> = [
    { kind: 'CancelWait', scope: 'stress-warm-up', waiterId: 'nobody' },
    { kind: 'Inspect' },
    { kind: 'Renew', scope: 'stress-warm-up', holder: 'nobody', expectedToken: 1, ttlMs: 1 },
    { kind: 'Release', scope: 'stress-warm-up', holder: 'nobody', token: 1 },
  ];
  return candidates.find((c) => supports(c.kind)) ?? null;
}

/**
 * A recovery epoch advanced once, after every client stopped: it ends every live lease, which
 * the lease checks would read as leases ended with no release, so nothing runs after it. Its
 * answer is recorded and counted like any other.
 */
async function closingRecovery(store: Store, supports: (kind: Command['kind']) => boolean, recorder: HistoryRecorder): Promise<void> {
  if (!supports('AdvanceRecoveryEpoch')) return;
  const op = recorder.invoke('closing', { kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: [] });
  try {
    recorder.complete(op, 'ok', await store.execute(op.command));
  } catch (error) {
    const status = error instanceof StoreUnavailableError ? 'fail' : error instanceof OutcomeUnknownError ? 'unknown' : 'error';
    recorder.complete(op, status, undefined, error instanceof Error ? error.message : String(error));
  }
}

export async function runStress(options: StressOptions): Promise<StressResult> {
  const { clients, durationMs, seed } = options;
  const world = stressWorld(clients, durationMs);
  let sessions: StressSessions;
  try {
    sessions = await options.open(clients);
  } catch (error) {
    throw new StressSetupError(`could not open ${clients} sessions: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const recorder = new HistoryRecorder();
  const fencing = fencingOf(sessions.stores[0]!);
  let startedAt: number;
  let finishedAt: number;
  try {
    const supports = supportsOf(sessions.stores[0]!);
    if (!canStress(supports)) throw new StressSetupError('the store implements none of the commands the stress workflows need (Acquire at least)');
    const stores = behindFenceIds(sessions.stores);
    for (const scope of supports('DefineCapacity') ? world.semaphores : []) {
      const setup = recorder.invoke('setup', { kind: 'DefineCapacity', scope, capacity: world.capacity });
      try {
        const defined = await stores[0]!.execute(setup.command);
        recorder.complete(setup, 'ok', defined);
      } catch (error) {
        throw new StressSetupError(`could not define the semaphore ${scope}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
    // One call on every session before the clock starts, so that connecting (and a schema's first
    // migration) is not part of the run. It changes nothing: there is no such waiter.
    const warmUpWith = warmUpCommand(supports);
    await Promise.all(
      [...new Set(warmUpWith === null ? [] : stores)].map(async (store) => {
        const warmUp = recorder.invoke('setup', warmUpWith!);
        try {
          recorder.complete(warmUp, 'ok', await store.execute(warmUp.command));
        } catch (error) {
          throw new StressSetupError(`a session could not be used: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
      }),
    );
    startedAt = wallNow();
    const deadline = startedAt + durationMs;
    await Promise.all(
      stores.map((store, i) => runClient({ name: `c${i}`, store, random: streamFor(seed, `stress/client-${i}`) }, world, recorder, startedAt, deadline)),
    );
    await closingRecovery(stores[0]!, supports, recorder);
    finishedAt = wallNow();
  } finally {
    await sessions.close();
  }
  const history = recorder.history();
  const verdict = checkStressHistory(history, options.timing ?? 'store', fencing);
  const byStatus: Record<OpStatus, number> = { ok: 0, fail: 0, unknown: 0, error: 0 };
  const byKind: Partial<Record<Command['kind'], number>> = {};
  const errors: string[] = [];
  // Answers that broke the port contract are findings about the store (the first few: a store
  // that breaks it usually does so everywhere), not errors that leave the run undecided.
  const breaches: StressViolation[] = [];
  for (const op of history) {
    if (op.client === 'setup') continue;
    byStatus[op.status]++;
    byKind[op.command.kind] = (byKind[op.command.kind] ?? 0) + 1;
    const breach = op.breach === true;
    if (breach && breaches.length < 5) breaches.push(violation(PORT_CONTRACT, scopeOf(op.command), [op], `${op.command.kind} by ${op.client}: the store ${op.error ?? ''}`));
    if (op.status === 'error' && !breach && errors.length < 5) errors.push(`${op.command.kind}: ${op.error}`);
  }
  const operations = history.filter((op) => op.client !== 'setup').length;
  const elapsedMs = finishedAt - startedAt;
  return {
    seed,
    clients,
    durationMs,
    elapsedMs,
    world,
    history,
    operations,
    throughput: operations / (elapsedMs / 1000),
    byStatus,
    byKind,
    violations: [...breaches, ...verdict.violations],
    undecided: verdict.undecided,
    errors,
    fencing,
    unjudged: verdict.unjudged,
  };
}

/** The scope a command names, or its kind when it names none (for a finding's heading). */
function scopeOf(command: Command): string {
  const fields = command as unknown as { scope?: unknown; scopes?: unknown };
  if (typeof fields.scope === 'string') return fields.scope;
  if (Array.isArray(fields.scopes) && typeof fields.scopes[0] === 'string') return fields.scopes[0];
  return command.kind;
}
