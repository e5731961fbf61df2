// cluster-doctor (seed 001 §241–§244): the doctor's consistency checks (model/cluster-doctor.ts) on
// the picture a run records when it ends, `cluster-doctor` `{ storeRoleEpochs, roles, voters }`:
// the store's role epochs (its Inspect view) and the coordination state the most advanced node
// applied. Every finding is a violation. A run that recorded no picture cannot be judged.

import { clusterDoctor, type CoordinationPicture } from '../cluster-doctor.ts';
import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { isTruth } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'cluster-doctor';

export function clusterDoctorChecker(history: History): Verdict {
  const reports = history.filter((event) => isTruth(event) && event.f === 'cluster-doctor');
  if (reports.length === 0) throw new Error('the run recorded no cluster-doctor picture');
  const violations: Violation[] = [];
  for (const report of reports) {
    const value = report.value as { storeRoleEpochs?: unknown; roles?: unknown; voters?: unknown };
    if (!Array.isArray(value.storeRoleEpochs) || !Array.isArray(value.roles) || !Array.isArray(value.voters)) throw new Error(`#${report.index}: cluster-doctor carries storeRoleEpochs, roles and voters`);
    const picture: CoordinationPicture = { roles: value.roles as CoordinationPicture['roles'], voters: value.voters as ReadonlyArray<string> };
    for (const finding of clusterDoctor(value.storeRoleEpochs as ReadonlyArray<{ role: string; epoch: number }>, picture)) {
      violations.push(violation(INVARIANT, `${finding.check}: ${finding.message} (#${report.index})`, [report.index]));
    }
  }
  return verdictOf(violations);
}
