// maintenance-respected (seed 001 §129–§131 global maintenance with a monotonic epoch, §306
// maintenance guard; §340 "maintenance state can be globally coordinated"): once a maintenance
// state that stops a role's work is set, no daemon of that role starts such work under the epoch
// in force when it was set or a later one, until a later change allows it again. A dispatch under
// an older epoch belongs to a leader deposed before the change and is not judged here (the role
// guard fences it). The rule is read from the history alone: `maintenance-change` records and the
// guard each DispatchJob carries. Every change also raises the maintenance epoch above every
// earlier one: a state set per daemon, not for the cluster, shows as an epoch that repeats.

import type { CoordinatedRole } from '../coordination-epoch.ts';
import type { FaultEvent, History } from '../history.ts';
import { gate, ROLE_OPERATION, type Maintenance, type MaintenanceState } from '../maintenance.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { faultsOf, pairOperations, storeOps } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'maintenance-respected';

/** The maintenance change in force just before history index `index`, or null. */
function inForce(changes: ReadonlyArray<FaultEvent>, index: number): FaultEvent | null {
  let found: FaultEvent | null = null;
  for (const change of changes) {
    if (change.index >= index) break;
    found = change;
  }
  return found;
}

export function maintenanceRespected(history: History): Verdict {
  const changes = faultsOf(history, ['maintenance-change']);
  if (changes.length === 0) return verdictOf([]);
  const violations: Violation[] = [];
  // One maintenance state for the whole cluster (§130), under an epoch that only rises (§131).
  changes.forEach((change, i) => {
    const before = changes[i - 1];
    if (before === undefined || (change.value.epoch as number) > (before.value.epoch as number)) return;
    violations.push(violation(INVARIANT, `maintenance ${String(change.value.state)} was set at #${change.index} under maintenance epoch ${String(change.value.epoch)}, not above epoch ${String(before.value.epoch)} set at #${before.index}: the maintenance state is not one for the cluster`, [before.index, change.index]));
  });
  for (const { op, command } of storeOps(pairOperations(history), 'DispatchJob')) {
    const guard = command.guard;
    if (guard === undefined) continue;
    const change = inForce(changes, op.invoke.index);
    if (change === null) continue;
    const state = change.value.state as MaintenanceState;
    const roleEpoch = change.value.roleEpoch as number;
    const inForceThen: Maintenance = { state, epoch: change.value.epoch as number };
    if (gate(inForceThen, ROLE_OPERATION[guard.role as CoordinatedRole], inForceThen.epoch).kind !== 'Blocked' || guard.epoch < roleEpoch) continue;
    violations.push(
      violation(
        INVARIANT,
        `${op.process} dispatched job ${command.jobId} (#${op.invoke.index}) under ${guard.role} epoch ${guard.epoch} while maintenance ${state} (maintenance epoch ${String(change.value.epoch)}, set at #${change.index} by ${String(change.value.by)} under epoch ${roleEpoch}) stops it`,
        [change.index, op.invoke.index],
      ),
    );
  }
  return verdictOf(violations);
}
