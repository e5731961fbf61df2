// The store under test: your own implementation of the testbed's store port. This example wraps
// the testbed's reference memory store and counts the commands it serves; put your database-backed
// store here instead. The default export is what `testbed --adapter <module>` loads: an async
// factory that opens a fresh store reading time from `options.time`.

import { createMemoryStore, type Command, type OutcomeOf, type Store, type StoreFactory, type StoreOptions } from 'concurrency-testbed';

export interface CountingStore extends Store {
  readonly served: () => number;
}

export async function openStore(options: StoreOptions): Promise<CountingStore> {
  const inner = await createMemoryStore(options);
  let served = 0;
  return {
    name: 'example-store',
    served: () => served,
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      served++;
      return inner.execute(command);
    },
    snapshot: () => inner.snapshot(),
    restore: (image) => inner.restore(image),
    close: () => inner.close(),
  };
}

/**
 * The same store with a classic bug: it checks the aggregate version of a write but not its
 * fencing token, by writing under whoever holds the scope now (seed 000 §25–§30).
 */
export async function openUnfencedStore(options: StoreOptions): Promise<Store> {
  const inner = await openStore(options);
  return {
    ...inner,
    name: 'example-store-unfenced',
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      if (command.kind === 'Mutate') {
        const { view } = await inner.execute({ kind: 'Inspect' });
        const holder = view.leases.find((lease) => lease.scope === command.scope);
        if (holder !== undefined) return inner.execute({ ...command, holder: holder.holder, token: holder.token });
      }
      return inner.execute(command);
    },
  };
}

const factory: StoreFactory = openStore;
export default factory;
