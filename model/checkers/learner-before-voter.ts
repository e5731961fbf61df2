// learner-before-voter (seed 001 §16–§17, §62–§63, §157, §338 "New member joins as learner before
// voter"): every voter that was not in the bootstrap configuration was a learner first and was
// promoted by a committed change, once it had caught up (it knew the committed epoch, §62 "catch
// up, verify health, promote"); configurations change one node at a time, each with the next
// version and an audit record naming the leader that committed it (§227); and only voters of the
// configuration in force elect a leader — a learner's or an outsider's vote never counts.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { leaderChanges } from './leader-changes.ts';
import { membershipRecords, nodeOfProcess, type MembershipRecord } from './membership-changes.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'learner-before-voter';

/** What one change may do to the sets of voters and learners. */
function expectedAfter(before: MembershipRecord, change: MembershipRecord): { voters: ReadonlySet<string>; learners: ReadonlySet<string> } | null {
  const voters = new Set(before.voters);
  const learners = new Set(before.learners);
  const node = change.node;
  if (node === null) return null;
  switch (change.change) {
    case 'add-learner':
      if (voters.has(node) || learners.has(node)) return null;
      learners.add(node);
      break;
    case 'promote':
      if (!learners.has(node)) return null;
      learners.delete(node);
      voters.add(node);
      break;
    case 'remove':
      if (!voters.delete(node) && !learners.delete(node)) return null;
      break;
    case 'bootstrap':
      return null;
  }
  return { voters, learners };
}

const same = (a: ReadonlySet<string>, b: ReadonlyArray<string>): boolean => a.size === b.length && b.every((n) => a.has(n));

export function learnerBeforeVoter(history: History): Verdict {
  const records = membershipRecords(history);
  const violations: Violation[] = [];
  if (records.length === 0) return verdictOf(violations);
  const [bootstrap, ...changes] = records;
  if (bootstrap!.change !== 'bootstrap' || bootstrap!.version !== 0) {
    violations.push(violation(INVARIANT, `the first membership record (#${bootstrap!.event.index}) is ${bootstrap!.change} version ${bootstrap!.version}, not the bootstrap configuration`, [bootstrap!.event.index]));
    return verdictOf(violations);
  }
  let current = bootstrap!;
  for (const change of changes) {
    const at = change.event.index;
    if (change.version !== current.version + 1) violations.push(violation(INVARIANT, `membership version ${change.version} (#${at}) follows version ${current.version}: a change without its audit record`, [current.event.index, at]));
    if (change.by === null) violations.push(violation(INVARIANT, `membership change ${change.change} ${change.node ?? ''} (#${at}) names no leader that committed it`, [at]));
    if (change.change === 'promote' && change.catchUp === undefined) {
      violations.push(violation(INVARIANT, `the promotion of ${change.node} (#${at}) does not record what the learner had caught up to`, [at]));
    } else if (change.catchUp !== undefined && change.catchUp.learnerEpoch < change.catchUp.committedEpoch) {
      violations.push(violation(INVARIANT, `${change.node} was promoted (#${at}) knowing epoch ${change.catchUp.learnerEpoch} while epoch ${change.catchUp.committedEpoch} was committed: a learner that had not caught up`, [at]));
    }
    const expected = expectedAfter(current, change);
    if (expected === null) {
      violations.push(violation(INVARIANT, `${change.change} of ${change.node ?? '?'} (#${at}) is not allowed on voters [${current.voters.join(', ')}], learners [${current.learners.join(', ')}]`, [current.event.index, at]));
    } else if (!same(expected.voters, change.voters) || !same(expected.learners, change.learners)) {
      violations.push(
        violation(INVARIANT, `${change.change} of ${change.node} (#${at}) left voters [${change.voters.join(', ')}], learners [${change.learners.join(', ')}]; one ${change.change} allows voters [${[...expected.voters].sort().join(', ')}], learners [${[...expected.learners].sort().join(', ')}]`, [current.event.index, at]),
      );
    }
    current = change;
  }
  // Elections count only the voters of the configuration in force.
  for (const election of leaderChanges(history)) {
    let config = bootstrap!;
    for (const record of records) if (record.event.index < election.event.index) config = record;
    const voters = new Set(config.voters);
    const outsiders = election.votes.filter((v) => !voters.has(v));
    const leaderNode = nodeOfProcess(election.leader);
    if (!voters.has(leaderNode)) outsiders.push(`${leaderNode} (the leader)`);
    if (outsiders.length > 0) {
      violations.push(violation(INVARIANT, `term ${election.term} (#${election.event.index}) counted ${outsiders.join(', ')}, not voters of configuration version ${config.version} [${config.voters.join(', ')}]`, [config.event.index, election.event.index]));
    }
    if (election.voters !== voters.size) {
      violations.push(violation(INVARIANT, `term ${election.term} (#${election.event.index}) was decided on ${election.voters} voters; configuration version ${config.version} has ${voters.size}`, [config.event.index, election.event.index]));
    }
  }
  return verdictOf(violations);
}
