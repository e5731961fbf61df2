// raft-log-narrow (seed 001 §338 "Run/Job rows never enter Raft", "CAS bytes never enter Raft",
// §340 "Raft is not the business database"): every entry a node applies is a coordination command
// (model/coordination-epoch.ts). A `raft-applied` record names any other command it applied in
// `command`; business rows (jobs, runs, artifacts) belong to the store.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, faultsOf, requireNumber, requireString } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'raft-log-narrow';
const COORDINATION_COMMANDS: ReadonlySet<unknown> = new Set([undefined, 'ElectLeader', 'SetMaintenance', 'ChangeMembership']);

export function raftLogNarrow(history: History): Verdict {
  const violations: Violation[] = [];
  const reported = new Set<number>();
  for (const event of faultsOf(history, ['raft-applied'])) {
    const command = asFields(event.value)?.['command'];
    const index = requireNumber(event.value, 'index', event.index);
    if (COORDINATION_COMMANDS.has(command) || reported.has(index)) continue;
    reported.add(index);
    violations.push(violation(INVARIANT, `${requireString(event.value, 'node', event.index)} applied entry ${index}, a ${String(command)} command (#${event.index}): the consensus log holds ${command === 'StoreArtifact' ? 'artifact bytes' : 'business rows'}, not only coordination commands`, [event.index]));
  }
  return verdictOf(violations);
}
