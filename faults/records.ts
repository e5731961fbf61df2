// The history's fault records (model/history.ts `FaultKind`): each is written by a fault kind
// (its `records`) or by the run itself (below). The real-fault driver, the timeline and the
// store's reconnection read this table; the compiler holds it to every kind the history has.

import type { FaultKind } from '../model/history.ts';
import { FAULT_PACKAGES, type PackageRecord } from './index.ts';
import { simulatedOnly, type FaultRecord } from './package.ts';

const COORDINATION: FaultRecord = { real: simulatedOnly('the coordination layer is simulated; the database is unaffected') };
const AGENTS: FaultRecord = { real: simulatedOnly('agents and their event streams are simulated; the database is unaffected') };

/** Records that no one fault kind writes: the liveness phase, what the coordination layer observes, and the federation's first picture. */
const RUN_RECORDS: Readonly<Record<Exclude<FaultKind, PackageRecord>, FaultRecord>> = {
  'liveness-phase': { real: (target) => target.healEverything(), untilEnd: true, movesPrimary: true },
  'quorum-loss': { ...COORDINATION, colour: '#e67e22', endedBy: 'quorum-restored' },
  'quorum-restored': COORDINATION,
  'leader-change': COORDINATION,
  'membership-change': COORDINATION,
  'membership-rejected': COORDINATION,
  'raft-cluster': COORDINATION,
  'raft-elected': COORDINATION,
  'raft-unreadable': COORDINATION,
  'raft-applied': COORDINATION,
  'raft-snapshot': COORDINATION,
  'agent-fleet': AGENTS,
  'agent-connected': AGENTS,
  'agent-disconnected': AGENTS,
  'agent-received': AGENTS,
  federation: { real: simulatedOnly('sites and their authority are simulated; the database sees only the authority epochs written to it') },
};

export const FAULT_RECORDS: Readonly<Record<FaultKind, FaultRecord>> = Object.freeze(
  Object.assign({}, ...Object.values(FAULT_PACKAGES).map((p) => p.records), RUN_RECORDS),
);
