// no-split-promotion (seed 001 §78, §94, §264–§265, §285): a promotion (a guarded protected write
// on a release channel or deployment target) is never accepted under a coordinator epoch older
// than one already accepted on the same scope, and one epoch's promotions come from one
// coordinator incarnation: two coordinators never interleave promotions of the same channel.

import type { History } from '../history.ts';
import { incarnationOfProcess } from '../node-incarnation.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { guardOf } from './leader-changes.ts';
import { pairOperations, storeOps } from './operations.ts';
import { regressions, type Placed } from './real-time-order.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'no-split-promotion';

interface Promotion {
  readonly role: string;
  readonly coordinator: string;
}

export function noSplitPromotion(history: History): Verdict {
  const promotions: Array<Placed<Promotion>> = [];
  for (const { op, command, outcome } of storeOps(pairOperations(history), 'Mutate')) {
    const guard = guardOf(command);
    if (guard === undefined || outcome?.kind !== 'Accepted' || op.completion === null) continue;
    promotions.push({ key: `${command.scope}\u0000${guard.role}`, start: op.invoke.index, end: op.completion.index, value: guard.epoch, item: { role: guard.role, coordinator: incarnationOfProcess(op.process) } });
  }
  const violations: Violation[] = [];
  for (const { earlier, later } of regressions(promotions, true)) {
    const scope = later.key.split('\u0000')[0]!;
    violations.push(
      violation(INVARIANT, `scope ${scope}: ${later.item.coordinator} promoted under ${later.item.role} epoch ${later.value} (#${later.end}) after ${earlier.item.coordinator} promoted under epoch ${earlier.value} (#${earlier.end})`, [earlier.start, earlier.end, later.start, later.end], scope),
    );
  }
  const coordinatorOf = new Map<string, Placed<Promotion>>();
  for (const promotion of promotions) {
    const key = `${promotion.key}\u0000${promotion.value}`;
    const first = coordinatorOf.get(key);
    if (first === undefined) coordinatorOf.set(key, promotion);
    else if (first.item.coordinator !== promotion.item.coordinator) {
      const scope = promotion.key.split('\u0000')[0]!;
      violations.push(violation(INVARIANT, `scope ${scope}: ${first.item.coordinator} and ${promotion.item.coordinator} both promoted under ${promotion.item.role} epoch ${promotion.value}`, [first.end, promotion.end], scope));
    }
  }
  return verdictOf(violations);
}
