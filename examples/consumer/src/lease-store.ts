// A lease store with fences of its own, written from the testbed's rule book (model/SEMANTICS.md)
// as a team would write one: leases and the writes they fence, nothing else, and a fence that is a
// string naming one grant, `<scope>/<n>`, rather than an integer token. It says both in its
// capabilities: `commands` (the testbed sends it no other kind, and reports the scenarios that need
// one as untested) and `fencing: 'opaque'` (the testbed hands its fences back wherever a command
// carries a token, and judges them by equality: a fence names one grant and is never reused, with
// no order of its own; 000 §24).
//
//     npx testbed check --adapter ./src/lease-store.ts
//     npx testbed stress --adapter ./src/lease-store.ts --clients 8 --duration 5s
//
// `openLeaseStore(options, 'fence-by-scope')` is the same store with a bug opaque fences invite: a
// write is checked against the scope and holder its fence names, not against the grant, so a holder
// whose lease expired and who took the scope again still writes under its first fence (000 §25–§30).

import type { Command, OutcomeOf, Store, StoreFactory, StoreOptions, TimeSource } from 'concurrency-testbed';
import { LEASE_COMMANDS, rejectAcquire, RoleEpochs, validTtl, Versions, type Outcome } from './rules.ts';

/** A fence: the scope and the how-many-th grant on it, `<scope>/<n>`. */
export type Fence = string;

interface Row {
  readonly scope: string;
  readonly holder: string;
  readonly fence: Fence;
  readonly acquiredAt: number;
  expiresAt: number;
}

export type LeaseStoreBug = 'fence-by-scope';

export async function openLeaseStore(options: StoreOptions, bug?: LeaseStoreBug): Promise<Store> {
  if (options.time === 'database') throw new Error('this store keeps its leases in memory: it needs a TimeSource, not a database clock');
  const leases = new LeaseTable(options.time, bug);
  return {
    name: bug === undefined ? 'lease-store' : `lease-store-${bug}`,
    capabilities: { commands: LEASE_COMMANDS, fencing: 'opaque', deterministic: true },
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      return leases.answer(command) as unknown as OutcomeOf<C>;
    },
    async close() {},
  };
}

class LeaseTable {
  /** One row per scope; an expired row stays until it is replaced (SEMANTICS.md "Leases"). */
  private readonly rows = new Map<string, Row>();
  /** Grants made per scope, never lowered, so no fence is given twice (000 §24). */
  private readonly grants = new Map<string, number>();
  private readonly roles = new RoleEpochs();
  private readonly versions = new Versions();

  constructor(
    private readonly time: TimeSource,
    private readonly bug: LeaseStoreBug | undefined,
  ) {}

  answer(command: Command): Outcome {
    switch (command.kind) {
      case 'Acquire':
        return this.acquire(command);
      case 'Renew':
        return this.renew(command);
      case 'Release': {
        const row = this.live(command.scope);
        if (row === null || row.holder !== command.holder || row.fence !== (command.token as unknown)) return this.stale(command.scope);
        this.rows.delete(command.scope);
        return { kind: 'Released', token: row.fence };
      }
      case 'Mutate':
        return this.mutate(command);
      default:
        throw new Error(`not implemented: ${command.kind} (capabilities.commands lists what this store implements)`);
    }
  }

  /** The scope's lease if it is live: expiry is decided by store time alone (000 §79–§82). */
  private live(scope: string): Row | null {
    const row = this.rows.get(scope);
    return row !== undefined && this.time.now() < row.expiresAt ? row : null;
  }

  private stale(scope: string): Outcome {
    return { kind: 'Stale', currentToken: this.live(scope)?.fence ?? null };
  }

  private acquire(command: Extract<Command, { kind: 'Acquire' }>): Outcome {
    const refused = this.roles.check(command.guard) ?? rejectAcquire(command);
    if (refused !== null) return refused;
    const busy = this.live(command.scope);
    if (busy !== null) return { kind: 'Busy', holder: busy.holder, token: busy.fence, expiresAt: busy.expiresAt };
    // This store has no wait queues: a waiter id names no waiter.
    if (command.waiterId !== undefined) return { kind: 'Rejected', reason: 'unknown-waiter' };
    const n = (this.grants.get(command.scope) ?? 0) + 1;
    this.grants.set(command.scope, n);
    const now = this.time.now();
    const row: Row = { scope: command.scope, holder: command.holder, fence: `${command.scope}/${n}`, acquiredAt: now, expiresAt: now + command.ttlMs };
    this.rows.set(command.scope, row);
    return { kind: 'Acquired', lease: leaseOf(row) };
  }

  private renew(command: Extract<Command, { kind: 'Renew' }>): Outcome {
    if (!validTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
    const row = this.rows.get(command.scope);
    if (row === undefined || row.holder !== command.holder || row.fence !== (command.expectedToken as unknown)) return this.stale(command.scope);
    if (this.live(command.scope) === null) return { kind: 'Expired' };
    row.expiresAt = this.time.now() + command.ttlMs;
    return { kind: 'Renewed', lease: leaseOf(row) };
  }

  /** A write is accepted only under the fence of the live lease, from its holder (000 §25–§30, §66–§70). */
  private mutate(command: Extract<Command, { kind: 'Mutate' }>): Outcome {
    const refused = this.roles.check(command.guard);
    if (refused !== null) return refused;
    const row = this.live(command.scope);
    const fence = command.token as unknown;
    const fenced = this.bug === 'fence-by-scope' ? typeof fence === 'string' && fence.startsWith(`${command.scope}/`) : row?.fence === fence;
    if (row === null || row.holder !== command.holder || !fenced) return { kind: 'StaleFence', currentToken: row?.fence ?? null };
    return this.versions.write(command.scope, command.aggregate, command.expectedVersion, fence);
  }
}

function leaseOf(row: Row) {
  return { scope: row.scope, holder: row.holder, token: row.fence, acquiredAt: row.acquiredAt, expiresAt: row.expiresAt };
}

const factory: StoreFactory = (options) => openLeaseStore(options);
export default factory;
