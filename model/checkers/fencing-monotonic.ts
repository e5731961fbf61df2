// fencing-monotonic (seed 000 §24, §203–§204, §271): the tokens a store issues on a scope are
// never reused and strictly increase in real-time order, across expiry, force release, failover
// and restore. A ForceReleased `nextToken` is a floor: what is issued after it is at least that.
// A store with fences of its own (capabilities.fencing 'opaque') is judged on reuse alone: a fence
// names one grant.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaseGrants } from './lease-grants.ts';
import { faultsBetween, pairOperations, storeOps, type Operation } from './operations.ts';
import { regressions, type Placed } from './real-time-order.ts';
import { verdictOf, violation } from './violations.ts';
import { fencingKind } from './fencing-kind.ts';

const INVARIANT = 'fencing-monotonic';

interface Issue {
  readonly op: Operation;
  readonly holder: string;
  /** 'issued' for a token handed to a holder, 'floor' for a ForceReleased nextToken. */
  readonly what: 'issued' | 'floor';
}

/** Every token issue and issue floor observed in the history, placed in real time. */
function tokenIssues(history: History): ReadonlyArray<Placed<Issue>> {
  const operations = pairOperations(history);
  const items: Array<Placed<Issue>> = leaseGrants(history, false).map(({ op, lease, index }) => ({
    key: lease.scope,
    start: op.invoke.index,
    end: index,
    value: lease.token,
    item: { op, holder: lease.holder, what: 'issued' },
  }));
  for (const { op, command, outcome } of storeOps(operations, 'ForceRelease')) {
    if (outcome?.kind !== 'ForceReleased') continue;
    const end = op.completion?.index ?? op.invoke.index;
    items.push({ key: command.scope, start: op.invoke.index, end, value: outcome.nextToken - 1, item: { op, holder: command.actor, what: 'floor' } });
  }
  return items;
}

function describe(placed: Placed<Issue>): string {
  const at = placed.item.op.completion?.index ?? placed.item.op.invoke.index;
  return placed.item.what === 'issued'
    ? `token ${placed.value} to ${placed.item.holder} (#${at})`
    : `force release floor ${placed.value} (nextToken ${placed.value + 1}, #${at})`;
}

export function fencingMonotonic(history: History): Verdict {
  // Fences of the store's own have no order to judge, and promise no floor: only reuse is asked.
  const integers = fencingKind(history) === 'integer';
  const items = tokenIssues(history).filter((item) => integers || item.item.what === 'issued');
  const violations: Violation[] = [];
  const firstIssue = new Map<string, Placed<Issue>>();
  for (const item of items) {
    if (item.item.what !== 'issued') continue;
    const id = `${item.key}\u0000${item.value}`;
    const first = firstIssue.get(id);
    if (first === undefined) {
      firstIssue.set(id, item);
      continue;
    }
    violations.push(
      violation(INVARIANT, `scope ${item.key}: token ${item.value} reused: ${describe(first)} and again ${describe(item)}${faultsBetween(history, first.end, item.start)}`, [first.end, item.end], item.key),
    );
  }
  for (const { earlier, later } of integers ? regressions(items, false) : []) {
    if (earlier.item.what === 'issued' && earlier.value === later.value) continue; // reported as a reuse above
    violations.push(
      violation(INVARIANT, `scope ${later.key}: ${describe(later)} is not above ${describe(earlier)}, which completed before it was invoked${faultsBetween(history, earlier.end, later.start)}`, [earlier.end, later.start, later.end], later.key),
    );
  }
  return verdictOf(violations);
}
