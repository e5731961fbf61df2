// A user's store, a module or an `exec:` process, as the CLI opens it: probed once up front, each
// call then checked against the port and limited in time (call-limit.ts), an error that escapes
// the store handed to the call in flight (store-escapes.ts); and why a module did not load.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CallTimeoutError, isSyncStore, StoreLostError, OutcomeUnknownError, type CallContext, type LifecycleEvent, StoreUnavailableError, type Store, type StoreFactory, type StoreOptions, type TimeSource } from '../../adapters/port.ts';
import { describeLifecycle, describeStoreCall, isStoreEscape } from '../../adapters/store-escape.ts';
import type { Command } from '../../model/commands.ts';
import type { ResolvedAdapter } from '../resolved-adapter.ts';
import { callTimeoutMs, limitCall } from './call-limit.ts';
import { firstLine, UndecidedError, UsageError } from '../../adapters/errors.ts';
import { storeOpened, throwPending, watchCall } from './store-escapes.ts';
import { RENEWAL_KINDS } from '../../sim/renewal-kind.ts';

const STORE_METHODS = ['execute', 'close'] as const;

/**
 * A user's store, module or process: probed once up front, so a store that does not implement the
 * port is bad input before any run starts, and a factory that fails or never answers is said to
 * before any work; each call then goes through `checkedStore`. The probe is not thrown away: it
 * is the store of the first run that asks for one on the same terms (its time sources forward to
 * that run's), so a store that is costly to open is opened once per run, not once more up front.
 */
export async function userStore(spec: string, userFactory: StoreFactory, probeConnection?: string): Promise<ResolvedAdapter> {
  const limitMs = callTimeoutMs();
  const open = async (options: StoreOptions): Promise<Store> => {
    let store: unknown;
    try {
      store = await limitCall(`the store factory of ${spec}`, () => userFactory(options), limitMs);
    } catch (error) {
      if (error instanceof CallTimeoutError) throw new UndecidedError(error.message, { cause: error });
      throw new UndecidedError(`the store factory of ${spec} failed: ${firstLine(error)}`, { cause: error });
    }
    return checkedStore(spec, checkStore(spec, store), limitMs);
  };
  const forward = forwardingTime();
  const probeOptions: StoreOptions = { time: forward.time, callerClock: forward.callerClock, ...(probeConnection === undefined ? {} : { connectionString: probeConnection }) };
  let spare: Store | null = await open(probeOptions);
  const deterministic = spare.capabilities?.deterministic === true;
  const factory: StoreFactory = async (options) => {
    if (spare === null || options.time === 'database' || options.connectionString !== undefined || !nearProbeTime(options.time)) return open(options);
    const store = spare;
    spare = null;
    forward.bind(options.time, options.callerClock);
    return store;
  };
  // The commands close the adapter in `finally`: a store that no run used and that fails to close
  // is said in one line on stderr, and does not replace the error a command may be ending with.
  const close = async (): Promise<void> => {
    if (spare === null) return;
    const store = spare;
    spare = null;
    try {
      await store.close();
    } catch (error) {
      process.stderr.write(`testbed: warning: adapter ${spec}: close() of a store no run used failed: ${firstLine(error)}\n`);
    }
  };
  // A probe opened on a connection of its own serves no run: every run gets a fresh schema.
  if (probeConnection !== undefined) await close();
  return { name: spec, store: { name: spec, factory }, deterministic, close };
}

/**
 * How far after the probe's time 0 a run's store time may start for the probe to serve it. A
 * simulated run or a check starts within seconds of 0; a run on the wall clock (`stress`) starts
 * decades after it, and gets a store of its own: a store that read the time it was opened at (a
 * clock kit's fake clock, with a sweeper on an interval) would otherwise have those decades to
 * catch up on at its first call, one interval at a time.
 */
const SPARE_START_MAX_MS = 86_400_000;

function nearProbeTime(time: TimeSource): boolean {
  const now = time.now();
  return now >= 0 && now <= SPARE_START_MAX_MS;
}

/** Time sources that read the ones bound later (virtual time 0 until then). */
function forwardingTime(): { time: TimeSource; callerClock: TimeSource; bind(time: TimeSource, callerClock: TimeSource | undefined): void } {
  let time: TimeSource = { now: () => 0 };
  let caller: TimeSource | undefined;
  return {
    time: { now: () => time.now() },
    callerClock: { now: () => (caller ?? time).now() },
    bind(t, c) {
      time = t;
      caller = c;
    },
  };
}

/**
 * Why a module did not load, in one line with the place when it is a syntax error. Node names the
 * place of a JavaScript syntax error in its stack; a TypeScript loader may report something else
 * entirely (tsx: "Cannot require() ES Module … in a cycle"), so the source is parsed again with
 * esbuild, which tsx brings along, for the line and column.
 */
export async function whyNotLoaded(file: string, spec: string, error: unknown): Promise<string> {
  const located = await syntaxErrorOf(file, spec);
  if (located !== null) return located;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const place = /^(file:\/\/\S+?):(\d+)$/m.exec(stack);
  if (error instanceof SyntaxError && place !== null) return `${spec}:${place[2]}: ${firstLine(error)}`;
  return firstLine(error);
}

async function syntaxErrorOf(file: string, spec: string): Promise<string | null> {
  let esbuild: { transform(code: string, options: { loader: string; format: string; sourcefile: string }): Promise<unknown> };
  try {
    esbuild = (await import('esbuild' as string)) as typeof esbuild;
  } catch {
    return null;
  }
  const extension = path.extname(file).slice(1);
  const loader = extension === 'ts' || extension === 'mts' || extension === 'cts' ? 'ts' : extension === 'tsx' || extension === 'jsx' ? extension : 'js';
  try {
    await esbuild.transform(readFileSync(file, 'utf8'), { loader, format: 'esm', sourcefile: spec });
    return null;
  } catch (error) {
    const first = (error as { errors?: ReadonlyArray<{ text: string; location: { line: number; column: number } | null }> }).errors?.[0];
    if (first === undefined) return null;
    return first.location === null ? `syntax error: ${first.text}` : `syntax error at ${spec}:${first.location.line}:${first.location.column + 1}: ${first.text}`;
  }
}

/**
 * A user's store, as the simulator calls it: an error it throws (other than the two the port
 * defines, unknown outcome and unavailable) names the store and the command, and every call but
 * the synchronous executeSync has the time limit of call-limit.ts, past which it rejects with a
 * CallTimeoutError naming it. An error that escapes the store meanwhile (store-escapes.ts) is
 * thrown from the call in flight, or the next execute. Everything else is the store's own.
 */
function checkedStore(spec: string, inner: Store, limitMs: number): Store {
  const named = (command: Command, error: unknown): unknown =>
    error instanceof OutcomeUnknownError || error instanceof StoreUnavailableError || error instanceof StoreLostError || isStoreEscape(error)
      ? error
      : new Error(`store ${spec} threw on ${command.kind}: ${firstLine(error)}`, { cause: error });
  const execute = async (command: Command, call?: CallContext): Promise<unknown> => {
    try {
      const label = `store ${spec} on ${command.kind}`;
      return await watchCall(describeStoreCall(command.kind, call), true, () => limitCall<unknown>(label, () => inner.execute(command, call), limitMs));
    } catch (error) {
      throw named(command, error);
    }
  };
  // The other calls, each within the same limit (a store that keeps the process alive cannot hang the command).
  const limited = (name: 'lifecycle' | 'snapshot' | 'restore' | 'close'): ((...args: unknown[]) => Promise<unknown>) | undefined => {
    const method = (inner as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function') return undefined;
    const call = (args: unknown[]): string => (name === 'lifecycle' ? describeLifecycle(args[0] as LifecycleEvent) : `${name}()`);
    return (...args) => watchCall(call(args), false, () => limitCall(`${name}() of store ${spec}`, () => (method as (...a: unknown[]) => unknown).apply(inner, args), limitMs));
  };
  const closed = storeOpened();
  const limitedClose = limited('close')!;
  // An escape no execute was left to throw (after the last call) is said by close: the run cannot pass over it.
  const close = async (): Promise<void> => {
    try {
      await limitedClose();
    } finally {
      closed();
    }
    throwPending();
  };
  const calls = { lifecycle: limited('lifecycle'), snapshot: limited('snapshot'), restore: limited('restore'), close };
  const executeSync = isSyncStore(inner)
    ? (command: Command): unknown => {
        try {
          return inner.executeSync(command);
        } catch (error) {
          throw named(command, error);
        }
      }
    : undefined;
  return new Proxy(inner, {
    get(target, key) {
      if (key === 'execute') return execute;
      if (key === 'executeSync') return executeSync;
      if (typeof key === 'string' && key in calls) return calls[key as keyof typeof calls];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A module's store must implement the port; anything else is bad input, not a bug of ours. */
function checkStore(spec: string, store: unknown): Store {
  if (typeof store !== 'object' || store === null) throw new UsageError(`adapter module ${spec}: the factory did not return a store object`);
  for (const method of STORE_METHODS) {
    if (typeof (store as Record<string, unknown>)[method] !== 'function') {
      throw new UsageError(`adapter module ${spec} does not implement the store port: missing ${method}()`);
    }
  }
  const fencing = (store as Store).capabilities?.fencing;
  if (fencing !== undefined && fencing !== 'integer' && fencing !== 'opaque' && fencing !== 'none') {
    throw new UsageError(`adapter module ${spec}: capabilities.fencing is ${JSON.stringify(fencing)}, expected 'integer', 'opaque' or 'none'`);
  }
  const renewal = (store as Store).capabilities?.renewal;
  if (renewal !== undefined && !RENEWAL_KINDS.includes(renewal)) {
    throw new UsageError(`adapter module ${spec}: capabilities.renewal is ${JSON.stringify(renewal)}, expected ${RENEWAL_KINDS.map((k) => `'${k}'`).join(' or ')}`);
  }
  return store as Store;
}
