// The coordination fault knobs (`coordination.faults`, seed 001): every coordination knob a fault
// kind declares (index.ts) plus the run's own, each an integer field with its unit last and
// default 0 (no fault). The scenario format's and the plan's schema of the block and
// `CoordinationFaultOptions` are derived from them (scenarios/coordination-options.ts holds the
// rest of the coordination block).

import { z } from 'zod';
import { packageKnobs, type PackageKnob } from './index.ts';
import { coordinationKnob, knobBlock, ms, pct, type FaultKnob } from './package.ts';

/**
 * Knobs that belong to no one kind: the cadence of the coordination ticks, and the voters' own
 * network under message-level consensus (the Raft service draws on each message; the database
 * links keep the profile's loss).
 */
const RUN_KNOBS = {
  intervalMs: coordinationKnob(ms, 'Interval between coordination nemesis ticks, in ms (0: no random coordination faults).'),
  messageLossPct: coordinationKnob(pct, "Chance (percent) that a consensus message between voters is lost (`consensus: 'raft'`; the database links keep the profile's)."),
  messageDuplicatePct: coordinationKnob(pct, "Chance (percent) that a consensus message between voters is delivered twice (`consensus: 'raft'`)."),
};

export type CoordinationKnobName = PackageKnob<'coordination'> | keyof typeof RUN_KNOBS;

/**
 * The order the fields of `coordination.faults` were written in before the kinds declared them:
 * a plan (and so a failure file) writes the block in its schema's order, and a scenario's problems
 * are listed in it, so the knobs that existed then keep their places. The registry's order differs
 * (it is the order of the draws, which the trace hashes pin). A knob a new kind declares, and is
 * not listed here, follows in registry order.
 */
const WRITTEN_ORDER: ReadonlyArray<CoordinationKnobName> = [
  'intervalMs', 'leaderCrashPct', 'leaderDownMs', 'leaderPausePct', 'leaderPauseMsMax', 'leaderIsolatePct', 'leaderIsolateMsMax', 'quorumSplitPct', 'quorumSplitMsMax',
  'newLeaderCrashPct', 'newLeaderIsolatePct', 'newLeaderIsolateMsMax', 'leaderTransferPct', 'voterStateLossPct', 'voterStateLossDownMs', 'messageLossPct',
  'messageDuplicatePct', 'impostorPct', 'orchestratorLeasePct', 'orchestratorLeaseMsMax', 'maintenancePct', 'maintenanceMsMax', 'rawProposalPct', 'casOutagePct',
  'casOutageMsMax', 'wanPartitionPct', 'wanPartitionMsMax',
];

export const COORDINATION_FAULT_KNOBS: Readonly<Record<CoordinationKnobName, FaultKnob<'coordination'>>> = Object.freeze(
  inWrittenOrder({ ...RUN_KNOBS, ...packageKnobs('coordination') }),
);

function inWrittenOrder(knobs: Readonly<Record<CoordinationKnobName, FaultKnob<'coordination'>>>): Record<CoordinationKnobName, FaultKnob<'coordination'>> {
  const gone = WRITTEN_ORDER.filter((name) => !(name in knobs));
  if (gone.length > 0) throw new Error(`coordination fault knobs ${gone.join(', ')} are listed in WRITTEN_ORDER but no longer declared: drop them from it`);
  const names = [...WRITTEN_ORDER, ...Object.keys(knobs).filter((name) => !WRITTEN_ORDER.includes(name as CoordinationKnobName))] as CoordinationKnobName[];
  return Object.fromEntries(names.map((name) => [name, knobs[name]])) as Record<CoordinationKnobName, FaultKnob<'coordination'>>;
}

/** `coordination.faults` of a scenario or a plan: each knob optional, default 0, nothing else. */
export const coordinationFaultsSchema = knobBlock(COORDINATION_FAULT_KNOBS);

export type CoordinationFaultOptions = Readonly<z.output<typeof coordinationFaultsSchema>>;
