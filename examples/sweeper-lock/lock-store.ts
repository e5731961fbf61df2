// The store port over the in-process lock library (lock-library.ts), wired with the clock kit
// (adapters/clock-kit.ts): the library is handed the kit's fake clock, so its `Date.now()` and its
// sweeper on `setInterval` follow store time (000 §79: the store's own clock decides expiry), and
// the testbed runs the sweeper at the virtual times it is due, before the store call that follows.
// Four commands (Acquire, Renew, Release, Mutate), answered as model/SEMANTICS.md says; the
// protected resource (a version per aggregate) is kept beside the library.
//
//     npx testbed sweep --scenario stale-holder --seeds 1..20 --adapter examples/sweeper-lock/store.ts
//     npx testbed sweep --scenario stale-holder --seeds 1..20 --adapter examples/sweeper-lock/early-sweep.ts   # the sweeper bug: exit 1

import { clockKit } from '../../adapters/clock-kit.ts';
import type { Store, StoreOptions } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';
import { LockTable, type LockTableOptions } from './lock-library.ts';

const COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;
const TTL_MAX_MS = 600_000;
const ID_MAX_LENGTH = 256;

type Outcome = { readonly kind: string } & Record<string, unknown>;

const validTtl = (ttl: unknown): boolean => Number.isInteger(ttl) && (ttl as number) >= 1 && (ttl as number) <= TTL_MAX_MS;
// eslint-disable-next-line no-control-regex
const validId = (id: unknown): boolean => typeof id === 'string' && id.length >= 1 && id.length <= ID_MAX_LENGTH && !/[\x00-\x1f\x7f]/.test(id);

/** The store over a lock table that sweeps as `sweep` says; `onTable` sees the table (tests read its sweeper's stats). */
export async function openLockStore(options: StoreOptions, sweep: LockTableOptions['sweep'], onTable?: (table: LockTable) => void): Promise<Store> {
  const kit = clockKit(options.time);
  const table = new LockTable({ clock: kit.clock, sweep, sweepEveryMs: 100 });
  onTable?.(table);
  const versions = new Map<string, number>();
  const stale = (scope: string): Outcome => ({ kind: 'Stale', currentToken: table.held(scope)?.token ?? null });
  // A role guard (001 §94) fences a caller whose epoch is below the role's; a passing one raises it.
  const roleEpochs = new Map<string, number>();
  const fenced = (guard: { role: string; epoch: number } | undefined): Outcome | null => {
    if (guard === undefined) return null;
    const stored = roleEpochs.get(guard.role) ?? 0;
    if (!(Number.isFinite(guard.epoch) && guard.epoch >= stored)) return { kind: 'Fenced', role: guard.role, currentEpoch: stored };
    roleEpochs.set(guard.role, guard.epoch);
    return null;
  };

  const answer = (command: Command): Outcome => {
    switch (command.kind) {
      case 'Acquire': {
        const refused = fenced(command.guard);
        if (refused !== null) return refused;
        if (!validTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
        if (!validId(command.scope) || !validId(command.holder) || (command.waiterId !== undefined && !validId(command.waiterId))) return { kind: 'Rejected', reason: 'invalid-argument' };
        const busy = table.held(command.scope);
        if (busy === null && command.waiterId !== undefined) return { kind: 'Rejected', reason: 'unknown-waiter' };
        const result = table.acquire(command.scope, command.holder, command.ttlMs);
        if (!result.granted) return { kind: 'Busy', holder: result.holder.owner, token: result.holder.token, expiresAt: result.holder.expiresAt };
        return { kind: 'Acquired', lease: leaseOf(result.lock) };
      }
      case 'Renew': {
        if (!validTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
        const result = table.renew(command.scope, command.holder, command.expectedToken, command.ttlMs);
        if (result.renewed) return { kind: 'Renewed', lease: leaseOf(result.lock) };
        return result.why === 'expired' ? { kind: 'Expired' } : stale(command.scope);
      }
      case 'Release':
        return table.release(command.scope, command.holder, command.token) ? { kind: 'Released', token: command.token } : stale(command.scope);
      case 'Mutate': {
        const refused = fenced(command.guard);
        if (refused !== null) return refused;
        const lock = table.held(command.scope);
        if (lock === null || lock.token !== command.token || lock.owner !== command.holder) return { kind: 'StaleFence', currentToken: lock?.token ?? null };
        const key = JSON.stringify([command.scope, command.aggregate]);
        const current = versions.get(key) ?? 0;
        if (current !== command.expectedVersion) return { kind: 'StaleVersion', currentVersion: current };
        versions.set(key, current + 1);
        return { kind: 'Accepted', version: current + 1, token: command.token };
      }
      default:
        throw new Error(`not implemented: ${command.kind}`);
    }
  };

  return kit.drive({
    name: 'sweeper-lock',
    capabilities: { commands: COMMANDS, deterministic: true },
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      return answer(command) as OutcomeOf<C>;
    },
    async close() {
      table.stop();
    },
  });
}

function leaseOf(lock: { name: string; owner: string; token: number; acquiredAt: number; expiresAt: number }) {
  return { scope: lock.name, holder: lock.owner, token: lock.token, acquiredAt: lock.acquiredAt, expiresAt: lock.expiresAt };
}
