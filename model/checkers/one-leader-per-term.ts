// one-leader-per-term (seed 001 §89, §283, §340): election safety. Each term has at most one
// leader, elected by a majority of the voters; the coordination epoch strictly rises with every
// leadership change, so no two leaders ever own the same epoch.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaderChanges, type LeaderChange } from './leader-changes.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'one-leader-per-term';

export function oneLeaderPerTerm(history: History): Verdict {
  const violations: Violation[] = [];
  const byTerm = new Map<number, LeaderChange>();
  let previous: LeaderChange | null = null;
  for (const change of leaderChanges(history)) {
    const at = change.event.index;
    const first = byTerm.get(change.term);
    if (first !== undefined) {
      violations.push(violation(INVARIANT, `term ${change.term} has two leaders: ${first.leader} (#${first.event.index}) and ${change.leader} (#${at})`, [first.event.index, at]));
    } else {
      byTerm.set(change.term, change);
    }
    const majority = Math.floor(change.voters / 2) + 1;
    const distinct = new Set(change.votes);
    if (distinct.size < majority) {
      violations.push(violation(INVARIANT, `${change.leader} led term ${change.term} with ${distinct.size} of ${change.voters} votes; a majority is ${majority} (#${at})`, [at]));
    }
    if (previous !== null && change.epoch <= previous.epoch) {
      violations.push(violation(INVARIANT, `coordination epoch ${change.epoch} of ${change.leader} (#${at}) does not rise above ${previous.epoch} of ${previous.leader} (#${previous.event.index})`, [previous.event.index, at]));
    }
    if (previous !== null && change.term <= previous.term) {
      violations.push(violation(INVARIANT, `term ${change.term} of ${change.leader} (#${at}) does not rise above term ${previous.term} (#${previous.event.index})`, [previous.event.index, at]));
    }
    previous = change;
  }
  return verdictOf(violations);
}
