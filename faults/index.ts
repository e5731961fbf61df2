// The registry of fault kinds (docs/ARCHITECTURE.md "Faults"). Each kind is one file beside this
// one (package.ts says what a kind declares); this list is the only place that names them all.
// The scenario format, the plan's draws (draws.ts), the profile's knobs (knobs.ts), the nemesis,
// the real-fault driver and the timeline (records.ts) all read it.
//
// Order matters in one way: at a nemesis or coordination tick the kinds draw in this order, and
// the trace hashes pin those draws. A new kind goes at the end.

import { z } from 'zod';
import { casOutage } from './cas-outage.ts';
import { clockSkew } from './clock-skew.ts';
import { crash } from './crash.ts';
import { dbCrash } from './db-crash.ts';
import { dbFailover } from './db-failover.ts';
import { dbRestore } from './db-restore.ts';
import { impostor } from './impostor.ts';
import { leaderCrash } from './leader-crash.ts';
import { leaderIsolate } from './leader-isolate.ts';
import { leaderPause } from './leader-pause.ts';
import { leaderTransfer } from './leader-transfer.ts';
import { maintenance } from './maintenance.ts';
import { memberAdd } from './member-add.ts';
import { memberPromote } from './member-promote.ts';
import { memberRemove } from './member-remove.ts';
import { messageLoss } from './message-loss.ts';
import { orchestratorLease } from './orchestrator-lease.ts';
import type { FaultKnob, FaultPackage, KnobStage, Knobs, StepSchema } from './package.ts';
import { partition } from './partition.ts';
import { pause } from './pause.ts';
import { providerTimeout } from './provider-timeout.ts';
import { quorumSplit } from './quorum-split.ts';
import { rawProposal } from './raw-proposal.ts';
import { siteCut } from './site-cut.ts';
import { siteFailover } from './site-failover.ts';
import { voterStateLoss } from './voter-state-loss.ts';
import { voterUpgrade } from './voter-upgrade.ts';
import { wanPartition } from './wan-partition.ts';

export const FAULT_PACKAGES = {
  partition,
  pause,
  crash,
  'db-crash': dbCrash,
  'db-failover': dbFailover,
  'clock-skew': clockSkew,
  'leader-crash': leaderCrash,
  'leader-pause': leaderPause,
  'leader-isolate': leaderIsolate,
  'quorum-split': quorumSplit,
  'message-loss': messageLoss,
  'db-restore': dbRestore,
  'provider-timeout': providerTimeout,
  'member-add': memberAdd,
  'member-promote': memberPromote,
  'member-remove': memberRemove,
  'voter-state-loss': voterStateLoss,
  'voter-upgrade': voterUpgrade,
  'leader-transfer': leaderTransfer,
  impostor,
  'orchestrator-lease': orchestratorLease,
  maintenance,
  'raw-proposal': rawProposal,
  'cas-outage': casOutage,
  'wan-partition': wanPartition,
  'site-cut': siteCut,
  'site-failover': siteFailover,
};

type Packages = typeof FAULT_PACKAGES;
/** The name of a scripted fault kind (`f` of a step). */
export type ScriptedFaultKind = keyof Packages;
/** A scripted fault step, as played (defaults filled in). */
export type ScriptedFault = { [K in ScriptedFaultKind]: z.output<Packages[K]['schema']> }[ScriptedFaultKind];
type KnobsOf<P> = P extends FaultPackage<StepSchema, infer KN, never> ? KN : never;
/** The knobs of `stage` that fault kinds declare. */
export type PackageKnob<St extends KnobStage = 'profile'> = {
  [K in ScriptedFaultKind]: { [N in keyof KnobsOf<Packages[K]>]: KnobsOf<Packages[K]>[N] extends FaultKnob<St> ? N & string : never }[keyof KnobsOf<Packages[K]>];
}[ScriptedFaultKind];
/** The history records that fault kinds write. */
export type PackageRecord = { [K in ScriptedFaultKind]: keyof Packages[K]['records'] }[ScriptedFaultKind];

// Each kind is registered under its own `f`: a kind registered under another name does not compile.
type Misregistered = { [K in ScriptedFaultKind]: z.output<Packages[K]['schema']>['f'] extends K ? never : K }[ScriptedFaultKind];
const registeredUnderItsName: [Misregistered] extends [never] ? true : Misregistered = true;
void registeredUnderItsName;

type Schema = Packages[ScriptedFaultKind]['schema'];
export const scriptedFaultSchema = z.discriminatedUnion('f', Object.values(FAULT_PACKAGES).map((p) => p.schema) as unknown as [Schema, ...Schema[]]);

/** The package of a step's kind, typed for that step. */
export function faultPackage<F extends ScriptedFault>(fault: F): FaultPackage<StepSchema, Knobs, never, F> {
  return FAULT_PACKAGES[fault.f] as unknown as FaultPackage<StepSchema, Knobs, never, F>;
}

/** The knobs the kinds declare for `stage`, in registry order (a kind's in the order it declares them). */
export function packageKnobs<St extends KnobStage>(stage: St): Readonly<Record<PackageKnob<St>, FaultKnob<St>>> {
  const knobs: Record<string, FaultKnob> = {};
  for (const [kind, p] of Object.entries(FAULT_PACKAGES) as Array<[string, { readonly knobs?: Knobs }]>) {
    for (const [name, knob] of Object.entries(p.knobs ?? {})) {
      if (knob.stage !== stage) continue;
      // Two kinds with one knob would share it without either knowing.
      if (name in knobs) throw new Error(`fault knob ${stage} ${name} is declared twice (again by ${kind})`);
      knobs[name] = knob;
    }
  }
  return knobs as Record<PackageKnob<St>, FaultKnob<St>>;
}
