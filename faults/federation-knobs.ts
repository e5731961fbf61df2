// The federation fault knobs (`federation.faults`, seed 000 §163–§169, §266–§268): every
// federation knob a fault kind declares (index.ts) plus the cadence of the federation ticks, each
// an integer field with its unit last and default 0 (no fault). The scenario format's and the
// plan's schema of the block and `FederationFaultOptions` are derived from them
// (scenarios/federation-options.ts holds the rest of the federation block).

import type { z } from 'zod';
import { packageKnobs, type PackageKnob } from './index.ts';
import { federationKnob, knobBlock, ms, type FaultKnob } from './package.ts';

/** The knob that belongs to no one kind: the cadence of the federation ticks. */
const RUN_KNOBS = {
  intervalMs: federationKnob(ms, 'Interval between federation nemesis ticks, in ms (0: no random federation faults).'),
};

export type FederationKnobName = PackageKnob<'federation'> | keyof typeof RUN_KNOBS;

/** The run's knob first, then the kinds' in registry order: the order plans write the block in. */
export const FEDERATION_FAULT_KNOBS: Readonly<Record<FederationKnobName, FaultKnob<'federation'>>> = Object.freeze({ ...RUN_KNOBS, ...packageKnobs('federation') });

/** `federation.faults` of a scenario or a plan: each knob optional, default 0, nothing else. */
export const federationFaultsSchema = knobBlock(FEDERATION_FAULT_KNOBS);

export type FederationFaultOptions = Readonly<z.output<typeof federationFaultsSchema>>;
