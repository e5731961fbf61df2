// busy-from-lease-cache — seed 000 §272–§276 (a restore brings back an older database; every
// pre-restore lease is invalid), §21–§24 (the seed's goals also say never to rely on
// process-local locking for distributed correctness). To spare the row lock on a contended scope, the store keeps a
// process-local copy of each scope's live lease, written through by the lease commands, and answers
// an Acquire that passed its checks Busy from that copy while the copied lease has not expired.
// Nothing but the lease commands touches the copy: a restore or failover replaces the database
// under it, and the recovery that invalidates every lease does not clear it, so after the restore
// the store goes on answering Busy with a holder and token the restored database no longer has.

import type { Lease } from '../../model/outcomes.ts';
import { mapWith } from '../../model/persistent.ts';
import type { ModelState } from '../../model/state.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import { declaredMutant } from './declarations.ts';
import type { StoreMutant } from '../entry.ts';
import { modelMutantStore, type BrokenRule } from './model-store.ts';

type LeaseKind = 'Acquire' | 'AcquireAll' | 'Renew' | 'Release' | 'Handoff' | 'ForceRelease';
const KINDS: ReadonlyArray<LeaseKind> = ['Acquire', 'AcquireAll', 'Renew', 'Release', 'Handoff', 'ForceRelease'];

/** The lease commands over `cache`: each answers as the reference does and writes its leases through to the copy. */
function cachedRule(cache: Map<string, Lease>): BrokenRule<LeaseKind> {
  return (state, command, now, reference) => {
    if (command.kind === 'Acquire') {
      const copy = cache.get(command.scope);
      if (copy !== undefined && now < copy.expiresAt && !state.leases.has(command.scope)) {
        // The checks before the table run on the database as usual (a guard's write stands); the
        // copied lease then answers in place of the row.
        const asked = reference({ ...state, leases: mapWith(state.leases, command.scope, copy) } as ModelState, command, now);
        if (asked.outcome.kind === 'Busy') return { state: { ...state, roleEpochs: asked.state.roleEpochs }, outcome: asked.outcome };
      }
    }
    const answer = reference(state, command, now);
    const outcome = answer.outcome;
    if (outcome.kind === 'Acquired' || outcome.kind === 'Renewed' || outcome.kind === 'HandedOff') cache.set(outcome.lease.scope, outcome.lease);
    if (outcome.kind === 'AcquiredAll') for (const lease of outcome.leases) cache.set(lease.scope, lease);
    if ((outcome.kind === 'Released' || outcome.kind === 'ForceReleased') && 'scope' in command) cache.delete(command.scope);
    return answer;
  };
}

export const busyFromLeaseCache: StoreMutant = {
  ...declaredMutant('busy-from-lease-cache'),
  wraps: (): StoreFactory => async (options) => modelMutantStore('busy-from-lease-cache', KINDS, cachedRule(new Map()))(options),
};
