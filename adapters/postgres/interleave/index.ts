// Controlled interleaving on PostgreSQL (adapters/interleaving.ts): every session's store connects
// through a wire proxy of its own (wire-proxy.ts), and the statement gate (statement-gate.ts)
// decides which held statement reaches the server next. The main store connects directly.

import pg from 'pg';
import { INTERLEAVE_WINDOW_MS, type Chooser, type InterleavedStores, type InterleaveStrategy, type Interleaving, type SessionCall } from '../../interleaving.ts';
import type { Store } from '../../port.ts';
import { createPostgresStore, type PostgresStoreOptions } from '../store.ts';
import { StatementGate } from './statement-gate.ts';
import { SessionProxy } from './wire-proxy.ts';

export { InterleavingStalledError } from './statement-gate.ts';

/** Opens a store of the run on `connectionString` with a pool of `poolSize` connections. */
export type OpenStore = (connectionString: string, poolSize: number) => Promise<Store>;

/** The server's address in a `postgresql://` URL; a socket path cannot be proxied. */
function upstreamOf(connectionString: string): { host: string; port: number; url: URL } {
  const url = new URL(connectionString);
  if (url.hostname === '' || url.searchParams.has('host')) throw new Error('controlled interleaving needs a server reached over TCP (host:port in the URL)');
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? 5432 : Number(url.port), url };
}

export async function openInterleaved(connectionString: string, sessions: ReadonlyArray<string>, openStore: OpenStore): Promise<InterleavedStores> {
  const upstream = upstreamOf(connectionString);
  const probe = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  probe.on('error', () => undefined);
  await probe.connect();
  const gate = new StatementGate(probe);
  const proxies = new Map<string, SessionProxy>();
  const stores = new Map<string, Store>();
  let main: Store | null = null;
  const close = async (): Promise<void> => {
    await Promise.allSettled([...stores.values(), ...(main === null ? [] : [main])].map((store) => store.close()));
    await Promise.allSettled([...proxies.values()].map((proxy) => proxy.close()));
    await probe.end().catch(() => undefined);
  };
  try {
    for (const session of sessions) proxies.set(session, new SessionProxy(session, upstream, gate.changed));
    gate.attach(proxies);
    main = await openStore(connectionString, 2);
    // The main store creates the schema; each session then opens its connection (the gate lets
    // everything pass outside a batch), so no batch pays for connecting or migrating.
    await main.execute({ kind: 'Inspect' });
    for (const [session, proxy] of proxies) {
      const url = new URL(upstream.url);
      url.hostname = '127.0.0.1';
      url.port = String(await proxy.listen());
      const store = await openStore(url.toString(), 1);
      stores.set(session, store);
      await store.execute({ kind: 'Inspect' });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    main,
    runBatch: (calls: ReadonlyArray<SessionCall>, choose: Chooser) =>
      gate.runBatch(
        calls.map((call) => ({ session: call.session, run: () => storeOf(stores, call.session).execute(call.command) as Promise<unknown> })),
        choose,
      ),
    close,
  };
}

function storeOf(stores: ReadonlyMap<string, Store>, session: string): Store {
  const store = stores.get(session);
  if (store === undefined) throw new Error(`no session named ${session}`);
  return store;
}

/**
 * Controlled interleaving of the PostgreSQL store (or a variant of it: `variant` replaces its
 * name or command bodies) on the server at `connectionString`, each run in a fresh schema.
 */
export function postgresInterleaving(
  strategy: InterleaveStrategy,
  connectionString: string,
  freshSchema: () => string,
  variant: Pick<PostgresStoreOptions, 'name' | 'commands'> = {},
): Interleaving {
  return {
    strategy,
    windowMs: INTERLEAVE_WINDOW_MS,
    open: (options, sessions) => {
      const schema = freshSchema();
      return openInterleaved(connectionString, sessions, (url, poolSize) => createPostgresStore({ ...options, ...variant, connectionString: url, schema, poolSize }));
    },
  };
}
