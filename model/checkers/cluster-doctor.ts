// cluster-doctor (seed 001 §241–§244): the doctor's consistency checks (model/cluster-doctor.ts),
// asked at two moments:
// - each time a leader takes its role (`leader-change`): the store must not already hold a role
//   epoch above the one the new leader's election committed (§243, DB/epoch consistency), read
//   from what the history shows the store accepted (leader-changes.ts `establishedEpochs`). Only
//   a leader of the newest term so far is asked: one whose term is below a term already recorded
//   was paused or cut off and applied its own, older, committed entry late; its view is stale
//   (the store fences it, §295), the coordination state is not behind (one-leader-per-term
//   judges its epoch against the later terms');
// - as the run ends, on the picture it records, `cluster-doctor` `{ storeRoleEpochs, roles,
//   voters }`: the store's role epochs from its Inspect view against the committed coordination
//   state, and no role owned by a node that is not a voter (§244).
// Every finding is a violation.

import { clusterDoctor, type CoordinationPicture } from '../cluster-doctor.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { establishedBefore, establishedEpochs, leaderChanges } from './leader-changes.ts';
import { isTruth, pairOperations } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'cluster-doctor';

export function clusterDoctorChecker(history: History): Verdict {
  const violations: Violation[] = [];
  const established = establishedEpochs(pairOperations(history));
  let newestTerm = -Infinity;
  for (const change of leaderChanges(history)) {
    if (change.term < newestTerm) continue;
    newestTerm = change.term;
    for (const [role, held] of establishedBefore(established, change.event.index)) {
      if (held.epoch <= change.epoch) continue;
      violations.push(violation(INVARIANT, `db-epoch-ahead: ${change.leader} took its role with coordination epoch ${change.epoch} (#${change.event.index}) while the store already held epoch ${held.epoch} for role ${role} (#${held.at})`, [held.at, change.event.index]));
    }
  }
  for (const report of history.filter((event) => isTruth(event) && event.f === 'cluster-doctor')) {
    const value = report.value as { storeRoleEpochs?: unknown; roles?: unknown; voters?: unknown };
    if (!Array.isArray(value.storeRoleEpochs) || !Array.isArray(value.roles) || !Array.isArray(value.voters)) throw new Error(`#${report.index}: cluster-doctor carries storeRoleEpochs, roles and voters`);
    const picture: CoordinationPicture = { roles: value.roles as CoordinationPicture['roles'], voters: value.voters as ReadonlyArray<string> };
    for (const finding of clusterDoctor(value.storeRoleEpochs as ReadonlyArray<{ role: string; epoch: number }>, picture)) {
      violations.push(violation(INVARIANT, `${finding.check}: ${finding.message} (#${report.index})`, [report.index]));
    }
  }
  return verdictOf(violations);
}
