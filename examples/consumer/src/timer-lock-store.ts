// The store port over the in-process lock library (timer-locks.ts), wired with the testbed's clock
// kit: the library is handed the kit's fake clock, so its `Date.now()`, the `setTimeout` that ends
// each lock and its audit on `setInterval` all run on store time, the clock that decides expiry
// (000 §79–§82), and the testbed runs each timer at the virtual time it is due, before the store
// call that follows. An error the library throws from a timer (its audit) is a finding naming the
// call in flight. Leases and the writes they fence, answered as model/SEMANTICS.md says; the
// protected resource is kept beside the library (rules.ts).
//
//     npx testbed sweep --scenario stale-holder --seeds 1..200 --adapter ./src/timer-lock-store.ts

import { clockKit, type Command, type OutcomeOf, type Store, type StoreFactory, type StoreOptions } from 'concurrency-testbed';
import { LEASE_COMMANDS, rejectAcquire, RoleEpochs, validTtl, Versions, type Outcome } from './rules.ts';
import { TimerLocks, type Grant, type TimerLocksOptions } from './timer-locks.ts';

/** The store over a lock library made with `library` (a bug to plant, the audit period); `onLibrary` sees the library (tests read its stats). */
export async function openTimerLockStore(options: StoreOptions, library: Omit<TimerLocksOptions, 'clock'> = {}, onLibrary?: (locks: TimerLocks) => void): Promise<Store> {
  const kit = clockKit(options.time);
  const locks = new TimerLocks({ ...library, clock: kit.clock });
  onLibrary?.(locks);
  const roles = new RoleEpochs();
  const versions = new Versions();
  const stale = (scope: string): Outcome => ({ kind: 'Stale', currentToken: locks.holder(scope)?.token ?? null });

  const answer = (command: Command): Outcome => {
    switch (command.kind) {
      case 'Acquire': {
        const refused = roles.check(command.guard) ?? rejectAcquire(command);
        if (refused !== null) return refused;
        const busy = locks.holder(command.scope);
        if (busy !== null) return { kind: 'Busy', holder: busy.owner, token: busy.token, expiresAt: busy.expiresAt };
        // The library has no wait queues: a waiter id names no waiter.
        if (command.waiterId !== undefined) return { kind: 'Rejected', reason: 'unknown-waiter' };
        const result = locks.acquire(command.scope, command.holder, command.ttlMs);
        return result.ok ? { kind: 'Acquired', lease: leaseOf(result.grant) } : { kind: 'Busy', holder: result.holder.owner, token: result.holder.token, expiresAt: result.holder.expiresAt };
      }
      case 'Renew': {
        if (!validTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
        const result = locks.extend(command.scope, command.holder, command.expectedToken, command.ttlMs);
        if (result.ok) return { kind: 'Renewed', lease: leaseOf(result.grant) };
        return result.why === 'expired' ? { kind: 'Expired' } : stale(command.scope);
      }
      case 'Release':
        return locks.release(command.scope, command.holder, command.token) ? { kind: 'Released', token: command.token } : stale(command.scope);
      case 'Mutate': {
        // A write is accepted only under the live lease's token, from its holder (000 §25–§30, §66–§70).
        const refused = roles.check(command.guard);
        if (refused !== null) return refused;
        const lock = locks.holder(command.scope);
        if (lock === null || lock.token !== command.token || lock.owner !== command.holder) return { kind: 'StaleFence', currentToken: lock?.token ?? null };
        return versions.write(command.scope, command.aggregate, command.expectedVersion, command.token);
      }
      default:
        throw new Error(`not implemented: ${command.kind} (capabilities.commands lists what this store implements)`);
    }
  };

  return kit.drive({
    name: library.bug === undefined ? 'timer-lock-store' : `timer-lock-store-${library.bug}`,
    capabilities: { commands: LEASE_COMMANDS, deterministic: true },
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      return answer(command) as OutcomeOf<C>;
    },
    async close() {
      locks.close();
    },
  });
}

function leaseOf(grant: Grant) {
  return { scope: grant.name, holder: grant.owner, token: grant.token, acquiredAt: grant.acquiredAt, expiresAt: grant.expiresAt };
}

const factory: StoreFactory = (options) => openTimerLockStore(options);
export default factory;
