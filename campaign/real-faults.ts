// `--faults real`: each run gets a fresh primary/replica pair behind the fault proxy, and a
// PostgreSQL store that reaches the current primary through its proxy. When a real fault moves
// or restarts the primary (failover, restore, crash), the store reconnects to wherever the
// driver now points — as a real client would after its connections broke.

import { realFaultAdapter } from '../backends/index.ts';
import type { RealFault, RealFaultDriver, RealFaultOutcome } from '../adapters/faults/real-faults.ts';
import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { Store, StoreOptions } from '../adapters/port.ts';
import { FAULT_RECORDS } from '../faults/records.ts';
import type { StoreChoice } from '../sim/run.ts';
import { UndecidedError } from '../adapters/errors.ts';

/** The one database client of a simulated run: the database node's connection. */
const CLIENT = 'store';

export interface RealRun {
  readonly store: StoreChoice;
  readonly driver: RealFaultDriver;
  close(): Promise<void>;
}

export async function startRealRun(runIndex: number): Promise<RealRun> {
  const { startRealFaultDriver } = await import('../adapters/faults/real-faults.ts');
  const { createPostgresStore } = await import('../adapters/postgres/store.ts');
  let driver: RealFaultDriver;
  try {
    driver = await startRealFaultDriver({ clients: [CLIENT] });
  } catch (error) {
    throw new UndecidedError(`cannot start the primary/replica pair for --faults real: ${error instanceof Error ? error.message : String(error)}`.split('\n')[0]!);
  }
  const schema = `real_run_${runIndex}`;
  let current: RebindingStore | null = null;
  const factory = async (options: StoreOptions): Promise<Store> => {
    const open = () => createPostgresStore({ ...options, connectionString: driver.connectionStringFor(CLIENT), schema, poolSize: 2 });
    current = new RebindingStore(await open(), open);
    return current;
  };
  const wrapped: RealFaultDriver = {
    async apply(fault: RealFault): Promise<RealFaultOutcome> {
      const outcome = await driver.apply(fault);
      if (outcome.kind === 'applied' && FAULT_RECORDS[fault.f].movesPrimary === true && current !== null) await current.rebind();
      return outcome;
    },
    connectionStringFor: (client) => driver.connectionStringFor(client),
    close: () => driver.close(),
  };
  return { store: { name: realFaultAdapter(), factory }, driver: wrapped, close: () => driver.close() };
}

/** A store whose connections can be re-opened against a moved primary. */
class RebindingStore implements Store {
  readonly name = realFaultAdapter();

  constructor(
    private inner: Store,
    private readonly open: () => Promise<Store>,
  ) {}

  execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
    return this.inner.execute(command);
  }

  async rebind(): Promise<void> {
    await this.inner.close().catch(() => undefined);
    this.inner = await this.open();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
