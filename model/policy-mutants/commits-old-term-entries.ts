// commits-old-term-entries — seed 001 §283, §340 (one committed coordination history); Raft paper 5.4.2.
// A Raft leader commits an entry of an earlier term once it counts a majority of replicas of it,
// instead of committing only entries of its own term (and earlier ones with them). A later
// leader elected without that entry overwrites it: two nodes apply different entries at one index
// (the Raft paper's Figure 8).

import type { PolicyMutant } from './policy-mutant.ts';

export const commitsOldTermEntries: PolicyMutant = {
  name: 'commits-old-term-entries',
  bug: 'a Raft leader commits an entry of an earlier term by counting its replicas',
  source: '001 §283, §340',
  rule: 'raft-state-machine-safety: no two nodes apply different entries at one index; raft-leader-completeness: every leader holds what was committed before it',
  invariants: ['raft-state-machine-safety', 'raft-leader-completeness'],
  scenarios: ['raft-old-term-commit'],
  policy: { commitCurrentTermOnly: false },
};
