// feature-activation (seed 001 §151–§156, §269): a command version is used only once every voter
// runs a binary that reads it. Judged on the message-level consensus: every entry a node applies
// has a version that each voter of the cluster (`raft-cluster`, all at version 1 then) reads at
// that moment, given the `voter-upgrade` records before it. An entry too new for some voter would
// leave that voter unable to follow the committed state (§152).

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, faultsOf, requireNumber, requireString } from './operations.ts';
import { raftApplied } from './raft-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'feature-activation';

export function featureActivation(history: History): Verdict {
  const violations: Violation[] = [];
  const reads = new Map<string, { version: number; index: number }>();
  for (const event of faultsOf(history, ['raft-cluster'])) {
    const voters = asFields(event.value)?.['voters'];
    const version = requireNumber(event.value, 'version', event.index);
    if (Array.isArray(voters)) for (const voter of voters) reads.set(String(voter), { version, index: event.index });
  }
  const upgrades = faultsOf(history, ['voter-upgrade']);
  const applied = raftApplied(history);
  const reported = new Set<number>();
  let next = 0;
  for (const entry of applied) {
    while (next < upgrades.length && upgrades[next]!.index < entry.event.index) {
      const upgrade = upgrades[next++]!;
      reads.set(requireString(upgrade.value, 'node', upgrade.index), { version: requireNumber(upgrade.value, 'version', upgrade.index), index: upgrade.index });
    }
    const version = (asFields(entry.event.value)?.['version'] as number | undefined) ?? 1;
    const behind = [...reads].filter(([, r]) => r.version < version);
    if (behind.length === 0 || reported.has(entry.index)) continue;
    reported.add(entry.index);
    const [voter, what] = behind[0]!;
    violations.push(
      violation(INVARIANT, `entry ${entry.index} of command version ${version} was applied by ${entry.node} (#${entry.event.index}) while voter ${voter} ran a binary that reads up to version ${what.version} (#${what.index})`, [what.index, entry.event.index]),
    );
  }
  return verdictOf(violations);
}
