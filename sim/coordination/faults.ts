// Coordination faults, as plan steps (seed 001 §82, §90, §97–§98, §259–§261), declared in
// faults/ (leader-crash.ts, leader-pause.ts, leader-isolate.ts, quorum-split.ts and the
// member-* files). They name the leader rather than a node, because who leads at a given time
// is decided by the run: the service resolves "the leader" when the fault fires.

import type { ScriptedFault } from '../../faults/index.ts';

export type CoordinationFault = Extract<ScriptedFault, { readonly f: 'leader-crash' | 'leader-pause' | 'leader-isolate' | 'quorum-split' | 'voter-state-loss' | 'voter-upgrade' | 'leader-transfer' | 'impostor' | 'orchestrator-lease' | 'maintenance' | 'raw-proposal' | 'cas-outage' | 'wan-partition' }> | MembershipFault;

/** An operator's membership request (§59–§66, §230–§233); `leader` names whoever leads when it fires. */
export type MembershipFault = Extract<ScriptedFault, { readonly f: 'member-add' | 'member-promote' | 'member-remove' }>;
