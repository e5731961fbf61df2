// The leases a history shows a store granting: Acquired, JobDispatched, HandedOff and AcquiredAll outcomes (each
// issues a token), and optionally Renewed (which restates one). Fencing, ownership, force-release
// and restore checks all judge this same set.

import type { History } from '../history.ts';
import type { Lease } from '../outcomes.ts';
import { pairOperations, storeOps, type Operation } from './operations.ts';

export interface LeaseGrant {
  readonly op: Operation;
  readonly lease: Lease;
  readonly what: 'Acquired' | 'JobDispatched' | 'HandedOff' | 'AcquiredAll' | 'Renewed';
  /** The index of the ok event that reported the lease. */
  readonly index: number;
}

/** Grants per paired history (with and without renewals): several checkers judge the same set. */
const cache = new WeakMap<ReadonlyArray<Operation>, { readonly [withRenewals: string]: ReadonlyArray<LeaseGrant> }>();

export function leaseGrants(history: History, withRenewals: boolean): ReadonlyArray<LeaseGrant> {
  const operations = pairOperations(history);
  const known = cache.get(operations)?.[String(withRenewals)];
  if (known !== undefined) return known;
  const grants = collect(operations, withRenewals);
  cache.set(operations, { ...cache.get(operations), [String(withRenewals)]: grants });
  return grants;
}

function collect(operations: ReadonlyArray<Operation>, withRenewals: boolean): ReadonlyArray<LeaseGrant> {
  const grants: LeaseGrant[] = [];
  const add = (op: Operation, lease: Lease, what: LeaseGrant['what']): void => {
    grants.push({ op, lease, what, index: op.completion?.index ?? op.invoke.index });
  };
  for (const { op, outcome } of storeOps(operations, 'Acquire')) if (outcome?.kind === 'Acquired') add(op, outcome.lease, 'Acquired');
  for (const { op, outcome } of storeOps(operations, 'DispatchJob')) if (outcome?.kind === 'JobDispatched') add(op, outcome.lease, 'JobDispatched');
  for (const { op, outcome } of storeOps(operations, 'Handoff')) if (outcome?.kind === 'HandedOff') add(op, outcome.lease, 'HandedOff');
  for (const { op, outcome } of storeOps(operations, 'AcquireAll')) {
    if (outcome?.kind === 'AcquiredAll') for (const lease of outcome.leases) add(op, lease, 'AcquiredAll');
  }
  if (withRenewals) for (const { op, outcome } of storeOps(operations, 'Renew')) if (outcome?.kind === 'Renewed') add(op, outcome.lease, 'Renewed');
  return grants.sort((a, b) => a.index - b.index);
}
