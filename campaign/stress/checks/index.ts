// Every check of a stress history. Each is a sorted sweep per scope, aggregate or key (never all
// pairs of operations), so a history of a few hundred thousand operations is checked in well under
// a second. A check that throws could not decide: the run is undecided, never passed. A store
// whose fences are not integers is judged on what its fences allow (fencing below), and the
// verdict names what that leaves unjudged.

import type { Command } from '../../../model/commands.ts';
import type { FencingKind } from '../../../sim/fence-ids.ts';
import type { StressHistory } from '../history.ts';
import { grantsOf, type Grant } from '../leases.ts';
import type { StressViolation } from '../violation.ts';
import { ACCEPTED_WRITES, checkAcceptedWrites, checkWritesAfterNewerGrant } from './accepted-writes.ts';
import { CAPACITY, capacitiesOf, checkCapacity, holdingsOf } from './capacity.ts';
import { checkFencingMonotonic, FENCING_MONOTONIC } from './fencing-monotonic.ts';
import { checkIdempotency, DIGEST_CONFLICT, IDEMPOTENCY_NEW_ONCE } from './idempotency.ts';
import { checkLeaseExclusive, LEASE_EXCLUSIVE } from './lease-exclusive.ts';
import { checkLeasesSurelyHeld } from './lease-surely-held.ts';
import { checkNoPhantomLease, NO_PHANTOM_LEASE } from './phantom-lease.ts';
import { checkWritesByGrantOrder } from './writes-by-grant-order.ts';

export const STRESS_INVARIANTS = [LEASE_EXCLUSIVE, FENCING_MONOTONIC, NO_PHANTOM_LEASE, ACCEPTED_WRITES, CAPACITY, IDEMPOTENCY_NEW_ONCE, DIGEST_CONFLICT] as const;

/**
 * The command kinds the checks follow in full on the scopes they judge (the stress clients' own,
 * client.ts, and the setup's). Other kinds on those scopes (jobs, handoffs, forced releases,
 * waiters, recovery epochs) grant or end leases the checks do not see, so a history with them
 * there is not theirs to judge: stress sends them on side scopes (side-flows.ts), and race judges
 * such cases by the reference model alone (campaign/race/judge.ts).
 */
export const JUDGED_KINDS: ReadonlySet<Command['kind']> = new Set<Command['kind']>([
  'Acquire', 'AcquireAll', 'Renew', 'Release', 'Mutate', 'IdempotencyBegin', 'IdempotencyComplete',
  'DefineCapacity', 'AcquirePermit', 'ReleasePermit', 'Reserve', 'ReleaseReservation', 'ConsumeReservation', 'FailReservation', 'Inspect',
]);

/**
 * How far store time can be trusted. 'store': the store stamps each decision with its own clock
 * read while it decides (the database's, or a store that decides atomically), so store times
 * follow the order of its decisions. 'real': the store was handed a clock it may read before it
 * takes its locks; leases are then judged in real time alone (checks/lease-surely-held.ts).
 */
export type StressTiming = 'store' | 'real';

/** A rule, or part of one, that the history's fences leave unjudged. */
export interface StressUnjudged {
  readonly invariant: string;
  readonly why: string;
}

export interface StressVerdict {
  readonly violations: ReadonlyArray<StressViolation>;
  /** Checks that threw, with what they threw: the history could not be judged by them. */
  readonly undecided: ReadonlyArray<string>;
  /** What the store's fences leave unjudged (nothing for integer tokens). */
  readonly unjudged: ReadonlyArray<StressUnjudged>;
}

/**
 * What a history in the tokens of the simulator's translation (sim/fence-ids.ts) cannot show: the
 * order of opaque fences, which their ids follow only as the answers happened to arrive; and, for
 * a store without fences, any fence at all (its ids name the grants the answers showed).
 */
export function unjudgedFor(fencing: FencingKind): ReadonlyArray<StressUnjudged> {
  if (fencing === 'opaque') return [{ invariant: FENCING_MONOTONIC, why: "the order of the store's fences (judged on reuse only; writes by the real-time order of their grants)" }];
  if (fencing === 'integer') return [];
  return [
    { invariant: FENCING_MONOTONIC, why: 'the store has no fences' },
    { invariant: NO_PHANTOM_LEASE, why: 'the fence a Busy answer names (judged on its holder only)' },
  ];
}

export function checkStressHistory(history: StressHistory, timing: StressTiming = 'store', fencing: FencingKind = 'integer'): StressVerdict {
  const violations: StressViolation[] = [];
  const undecided: string[] = [];
  const run = (name: string, check: () => StressViolation[]): void => {
    try {
      violations.push(...check());
    } catch (error) {
      undecided.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let grants: Grant[] = [];
  run('leases', () => {
    grants = grantsOf(history);
    return [];
  });
  if (undecided.length === 0) {
    run(LEASE_EXCLUSIVE, () => (timing === 'store' ? checkLeaseExclusive(grants) : checkLeasesSurelyHeld(grants)));
    if (fencing !== 'none') run(FENCING_MONOTONIC, () => checkFencingMonotonic(grants, fencing === 'integer'));
    run(NO_PHANTOM_LEASE, () => checkNoPhantomLease(history, grants, fencing !== 'none'));
    run(ACCEPTED_WRITES, () => (fencing === 'integer' ? checkWritesAfterNewerGrant(history, grants) : checkWritesByGrantOrder(history, grants)));
  }
  run(ACCEPTED_WRITES, () => checkAcceptedWrites(history, fencing === 'integer'));
  run(CAPACITY, () => checkCapacity(holdingsOf(history), capacitiesOf(history)));
  run('idempotency', () => checkIdempotency(history));
  return { violations, undecided, unjudged: unjudgedFor(fencing) };
}
