// A PostgreSQL server for the testbed's own use, shared by the backends that keep data in
// PostgreSQL: DATABASE_URL, else an embedded one; and the fresh schema each run gets on it.

import type { PostgresServer } from '../../adapters/postgres/harness.ts';
import { UndecidedError, UsageError } from '../../adapters/errors.ts';

/**
 * Names of fresh schemas on `server`, one per run, so runs never see each other's rows; on a
 * shared server they are named after the server's own schema, and server.stop() drops them all.
 */
export function schemasOf(server: PostgresServer): () => string {
  let runs = 0;
  const base = server.schema === 'public' ? 'run' : `${server.schema}_run`;
  return () => `${base}_${++runs}`;
}

/**
 * The server: a bad DATABASE_URL is bad input (exit 2); a server that cannot be started or
 * reached is this machine's problem (exit 3).
 */
export async function serverOrFail(): Promise<PostgresServer> {
  const { ServerUrlError, startPostgres } = await import('../../adapters/postgres/harness.ts');
  const { ServerEnvironmentError } = await import('../../adapters/postgres/local-server.ts');
  try {
    return await startPostgres();
  } catch (error) {
    if (error instanceof ServerUrlError) throw new UsageError(error.message);
    const cause = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    if (process.env.DATABASE_URL) throw new UndecidedError(`cannot reach the server at DATABASE_URL: ${cause}; check that it runs and accepts connections`);
    // An environment error says what to do itself; anything else gets the way around it.
    const todo = error instanceof ServerEnvironmentError ? '' : '; set DATABASE_URL to a server of your own to use it instead';
    throw new UndecidedError(`cannot start an embedded PostgreSQL server: ${cause}${todo}`);
  }
}
