// quorum-in-one-region (seed 001 §187–§189: WAN/global Raft is not required and not the baseline;
// three voters within one low-latency region, regional workers and PostgreSQL's own multi-region
// architecture beyond it; §338 "WAN/global Raft is not required for initial production", §340):
// a cut of the links between regions never costs the coordination layer its quorum, because a
// majority of the voters of the configuration in force sits in one region. Judged at each
// `wan-partition`, from the regions it names and the voters it records: a cut that leaves no
// region with a majority of the voters shows a quorum that spans the wide-area links. (Whether a
// quorum loss during a cut came from the cut alone cannot be read safely from the records, with
// crashes, pauses and partitions that began before it, so the placement is what is judged.)

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { faultsOf } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'quorum-in-one-region';

export function quorumInOneRegion(history: History): Verdict {
  const violations: Violation[] = [];
  for (const cut of faultsOf(history, ['wan-partition'])) {
    const voters = new Set((cut.value.voters as ReadonlyArray<string> | undefined) ?? []);
    if (voters.size === 0) continue;
    const regions = (cut.value.regions as ReadonlyArray<ReadonlyArray<string>> | undefined) ?? [];
    const most = Math.max(0, ...regions.map((region) => region.filter((name) => voters.has(name)).length));
    const majority = Math.floor(voters.size / 2) + 1;
    if (most >= majority) continue;
    const where = regions.map((region) => `[${region.filter((name) => voters.has(name)).join(', ')}]`).join(' ');
    violations.push(violation(INVARIANT, `the cut between regions at #${cut.index} leaves no region with a majority of the ${voters.size} voters (${where}): the quorum spans the wide-area links`, [cut.index]));
  }
  return verdictOf(violations);
}
