// The memory store: the reference model behind the store port (docs/ARCHITECTURE.md "The store port"). It
// reads time only from the TimeSource it is given, so in the simulator expiry follows virtual
// time. The simulator's hot path may call `executeSync` to skip the promise round trip.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import { initialState, type ModelState } from '../model/state.ts';
import { step } from '../model/step.ts';
import type { StoreFactory, StoreImage, StoreOptions, SyncStore, TimeSource } from './port.ts';

export const MEMORY_ADAPTER = 'memory';

export interface MemoryStore extends SyncStore {
  snapshot(): Promise<StoreImage>;
  restore(image: StoreImage): Promise<void>;
  /** The same images without a promise, for the simulator's failover and restore. */
  snapshotSync(): StoreImage;
  restoreSync(image: StoreImage): void;
}

function timeSourceOf(options: StoreOptions): TimeSource {
  if (options.time === 'database') {
    throw new Error("memory store has no database clock: pass a TimeSource (virtual time), not 'database'");
  }
  return options.time;
}

function isModelState(data: unknown): data is ModelState {
  return typeof data === 'object' && data !== null && 'lastTokens' in data && 'leases' in data && 'recoveryEpoch' in data;
}

/**
 * The stores this module made: each runs the reference model itself, so comparing its answers
 * with the reference model's (sim/shadow-model.ts) is comparing the model with itself. A wrapper
 * (a mutant, fence ids) is another object and is not in the set.
 */
const referenceStores = new WeakSet<object>();

/** Whether `store` is a memory store as this module made it: the reference model, unwrapped. */
export function isReferenceStore(store: object): boolean {
  return referenceStores.has(store);
}

export function createMemoryStoreSync(options: StoreOptions): MemoryStore {
  const time = timeSourceOf(options);
  let state: ModelState = initialState();
  let closed = false;

  const executeSync = <C extends Command>(command: C): OutcomeOf<C> => {
    if (closed) throw new Error('memory store is closed');
    const result = step(state, command, time.now());
    state = result.state;
    return result.outcome;
  };
  // The state is immutable, so an image can share it: later commands never change it.
  const snapshotSync = (): StoreImage => ({ adapter: MEMORY_ADAPTER, data: state });
  const restoreSync = (image: StoreImage): void => {
    if (image.adapter !== MEMORY_ADAPTER) throw new Error(`memory store cannot restore an image of adapter '${image.adapter}'`);
    if (!isModelState(image.data)) throw new Error('memory store image does not hold a model state');
    state = image.data;
  };

  const store: MemoryStore = {
    name: MEMORY_ADAPTER,
    executeSync,
    execute: async (command) => executeSync(command),
    snapshotSync,
    restoreSync,
    snapshot: async () => snapshotSync(),
    restore: async (image) => restoreSync(image),
    close: async () => {
      closed = true;
    },
  };
  referenceStores.add(store);
  return store;
}

export const createMemoryStore = (async (options: StoreOptions): Promise<MemoryStore> => createMemoryStoreSync(options)) satisfies StoreFactory;

export default createMemoryStore;
