// The history's fault records (model/history.ts `FaultKind`): each is written by a fault kind
// (its `records`) or by the run itself (below). The real-fault driver, the timeline and the
// store's reconnection read this table; the compiler holds it to every kind the history has.

import type { FaultKind } from '../../model/history.ts';
import { FAULT_PACKAGES, type PackageRecord } from './index.ts';
import { simulatedOnly, type FaultRecord } from './package.ts';

const COORDINATION = 'the coordination layer is simulated; the database is unaffected';
const AGENTS = 'agents and their event streams are simulated; the database is unaffected';

/** Records that no one fault kind writes: the liveness phase and what the coordination layer observes. */
const RUN_RECORDS: Readonly<Record<Exclude<FaultKind, PackageRecord>, FaultRecord>> = {
  'liveness-phase': { real: (target) => target.healEverything(), untilEnd: true, movesPrimary: true },
  'quorum-loss': { real: simulatedOnly(COORDINATION), colour: '#e67e22', endedBy: 'quorum-restored' },
  'quorum-restored': { real: simulatedOnly(COORDINATION) },
  'leader-change': { real: simulatedOnly(COORDINATION) },
  'membership-change': { real: simulatedOnly(COORDINATION) },
  'membership-rejected': { real: simulatedOnly(COORDINATION) },
  'raft-cluster': { real: simulatedOnly(COORDINATION) },
  'raft-elected': { real: simulatedOnly(COORDINATION) },
  'raft-unreadable': { real: simulatedOnly(COORDINATION) },
  'raft-applied': { real: simulatedOnly(COORDINATION) },
  'raft-snapshot': { real: simulatedOnly(COORDINATION) },
  'agent-fleet': { real: simulatedOnly(AGENTS) },
  'agent-connected': { real: simulatedOnly(AGENTS) },
  'agent-disconnected': { real: simulatedOnly(AGENTS) },
  'agent-received': { real: simulatedOnly(AGENTS) },
};

export const FAULT_RECORDS: Readonly<Record<FaultKind, FaultRecord>> = Object.freeze(
  Object.assign({}, ...Object.values(FAULT_PACKAGES).map((p) => p.records), RUN_RECORDS),
);
