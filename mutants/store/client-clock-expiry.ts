// client-clock-expiry — seed 000 §79–§82 ("Avoid Client Clock For Expiry", "Clock Skew must not
// allow two valid owners"). The store stamps and judges expiry with the clock of whichever
// controller is calling: a controller whose clock runs ahead sees a live lease as expired and
// takes it, and a controller whose clock lags keeps a lease alive past its real end.

import type { Command } from '../../model/commands.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';
import type { Store, StoreFactory, SyncStore } from '../../adapters/port.ts';
import { declaredMutant } from './declarations.ts';
import type { StoreMutant } from '../entry.ts';

/** The correct store, handed the caller's clock in place of its own (when the caller has one). */
export function withCallerClock(base: StoreFactory): StoreFactory {
  return async (options) => {
    const callerClock = options.callerClock;
    // Store time is never negative; a caller clock skewed behind the epoch reads as zero.
    const time = callerClock === undefined ? options.time : { now: () => Math.max(0, callerClock.now()) };
    const store = await base({ ...options, time });
    const { snapshot, restore } = store;
    // The simulator's hot path calls `executeSync` when the store has one (the memory store does).
    const executeSync = (store as Partial<SyncStore>).executeSync;
    const mutant: Store & Partial<SyncStore> = {
      name: 'mutant:client-clock-expiry',
      execute: <C extends Command>(command: C) => store.execute(command),
      ...(executeSync === undefined ? {} : { executeSync: <C extends Command>(command: C) => executeSync.call(store, command) as OutcomeOf<C> }),
      close: () => store.close(),
      ...(snapshot === undefined ? {} : { snapshot: () => snapshot.call(store) }),
      ...(restore === undefined ? {} : { restore: (image) => restore.call(store, image) }),
    };
    return mutant;
  };
}

export const clientClockExpiry: StoreMutant = { ...declaredMutant('client-clock-expiry'), wraps: withCallerClock };
