// one-leader-per-term (seed 001 §89, §283, §340): election safety. Each term has at most one
// leader, elected by a majority of the voters; the coordination epoch strictly rises with the
// term, so no two leaders ever own the same epoch.
//
// The rule judges what was decided, not when a node learnt it: a leader records its
// `leader-change` when it applies its own committed entry, and a leader that was paused or cut off
// may apply it after a later term's leader applied its own (seed 001 §295: a stale leader is
// fenced by the store, not by the order in which nodes catch up). So the changes are compared in
// term order, whatever their order in the history.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaderChanges, type LeaderChange } from './leader-changes.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'one-leader-per-term';

export function oneLeaderPerTerm(history: History): Verdict {
  const changes = leaderChanges(history);
  const violations: Violation[] = [];
  const byTerm = new Map<number, LeaderChange>();
  for (const change of changes) {
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
  }
  violations.push(...epochsRiseWithTerms(changes));
  return verdictOf(violations);
}

/** In term order (history order within a term), each leadership's epoch is above the one before it. */
function epochsRiseWithTerms(changes: ReadonlyArray<LeaderChange>): Violation[] {
  const ordered = [...changes].sort((a, b) => a.term - b.term || a.event.index - b.event.index);
  const violations: Violation[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const earlier = ordered[i - 1]!;
    const later = ordered[i]!;
    if (later.epoch > earlier.epoch) continue;
    const [first, second] = earlier.event.index < later.event.index ? [earlier.event.index, later.event.index] : [later.event.index, earlier.event.index];
    violations.push(
      violation(
        INVARIANT,
        `coordination epoch ${later.epoch} of ${later.leader} (term ${later.term}, #${later.event.index}) does not rise above ${earlier.epoch} of ${earlier.leader} (term ${earlier.term}, #${earlier.event.index})`,
        [first, second],
      ),
    );
  }
  return violations;
}
