// docs/ARCHITECTURE.md "Faults": each fault kind is one package of faults/, and what the rest
// of the testbed derives from the registry is true of every kind: it is registered under its own
// name, its knobs are in the block of the stage it is drawn at, its random draw happens exactly
// when the knobs it names are on, and every history record it writes has a real action or says
// why it has none.

import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/index.ts';
import { COORDINATION_FAULT_KNOBS, coordinationFaultsSchema } from '../../faults/coordination-knobs.ts';
import { FEDERATION_FAULT_KNOBS } from '../../faults/federation-knobs.ts';
import { FAULT_PACKAGES, scriptedFaultSchema } from '../../faults/index.ts';
import { FAULT_KNOBS, faultProfileSchema } from '../../faults/knobs.ts';
import type { FaultKnob, KnobStage } from '../../faults/package.ts';
import { FAULT_RECORDS } from '../../faults/records.ts';
import { generatePlan } from '../../sim/generate-plan.ts';
import type { Scenario } from '../../scenarios/schema.ts';

const kinds = Object.entries(FAULT_PACKAGES);

type Stage = 'nemesis' | 'coordination' | 'federation';

/** A plan's fault kinds drawn at random (no scripted step) with only `knobs` on, at the ticks of `stage`. */
function drawnKinds(base: Scenario, knobs: Readonly<Record<string, number>>, stage: Stage): Set<string> {
  const quiet = (faults: object | undefined) => Object.fromEntries(Object.keys(faults ?? {}).map((knob) => [knob, 0]));
  const unscripted = { ...base.faults, scripted: [] };
  const scenario: Scenario =
    stage === 'coordination'
      ? { ...base, faults: unscripted, coordination: { ...base.coordination!, faults: { ...base.coordination!.faults, ...quiet(base.coordination?.faults), intervalMs: 500, ...knobs } } }
      : stage === 'federation'
        ? { ...base, faults: { ...unscripted, profile: {} }, federation: { ...base.federation!, faults: { ...base.federation!.faults, ...quiet(base.federation?.faults), intervalMs: 500, ...knobs } } }
        : { ...base, faults: { ...unscripted, profile: { nemesisIntervalMs: 500, ...knobs } } };
  const found = new Set<string>();
  for (const seed of [1, 2, 3]) for (const step of generatePlan(scenario, seed).steps) if (step.kind === 'fault') found.add(step.fault.f);
  return found;
}

describe('fault kinds (faults/)', () => {
  it('each is registered under the name its steps carry, and the scenario schema takes its steps', () => {
    for (const [name, fault] of kinds) {
      expect(fault.schema.shape.f.value, name).toBe(name);
      expect(scriptedFaultSchema.safeParse({ f: name }).success, `${name} without its fields`).toBe(false);
    }
    expect(scriptedFaultSchema.safeParse({ f: 'meteor', at: 0 }).success).toBe(false);
  });

  it('the profile, coordination.faults and federation.faults are the unions of the kinds\' knobs of their stage, each zero by default and refused when unknown', () => {
    const blocks: Readonly<Record<KnobStage, Readonly<Record<string, unknown>>>> = { profile: FAULT_KNOBS, coordination: COORDINATION_FAULT_KNOBS, federation: FEDERATION_FAULT_KNOBS };
    const drawnAt = { start: 'profile', nemesis: 'profile', coordination: 'coordination', federation: 'federation' } as const;
    for (const [name, fault] of kinds) {
      for (const [knob, spec] of Object.entries<FaultKnob>(fault.knobs ?? {})) {
        expect(blocks[spec.stage], `${name}.${knob}`).toHaveProperty(knob, spec);
        // A draw is handed the values of its own stage's block only.
        expect(spec.stage, `${name}.${knob}`).toBe(drawnAt[fault.draw?.on ?? 'nemesis']);
      }
    }
    // No two kinds declare the same knob of a stage (the block would keep only one of them).
    const declared = kinds.flatMap(([, fault]) => Object.entries<FaultKnob>(fault.knobs ?? {}).map(([knob, spec]) => `${spec.stage} ${knob}`));
    expect(new Set(declared).size).toBe(declared.length);
    expect(faultProfileSchema.safeParse({ partitionProbabilityPct: 5 }).success).toBe(true);
    expect(faultProfileSchema.safeParse({ partitionProbabilityPct: 101 }).success).toBe(false);
    expect(faultProfileSchema.safeParse({ meteorShowerPct: 1 }).success).toBe(false);
    expect(Object.values(coordinationFaultsSchema.parse({}))).toEqual(Object.keys(COORDINATION_FAULT_KNOBS).map(() => 0));
    expect(coordinationFaultsSchema.safeParse({ leaderCrashPct: 101 }).success).toBe(false);
    expect(coordinationFaultsSchema.safeParse({ meteorShowerPct: 1 }).success).toBe(false);
  });

  it('a kind is drawn at random when the knobs it names are on, and never when they are off', () => {
    const bases: Readonly<Record<Stage, Scenario>> = { nemesis: loadScenario('standard-mix'), coordination: loadScenario('three-node-failover'), federation: loadScenario('federation-site-failover') };
    for (const [name, fault] of kinds) {
      if (fault.draw === undefined) continue;
      const stage: Stage = fault.draw.on === 'start' ? 'nemesis' : fault.draw.on;
      expect(fault.randomWhen, `${name} draws but names no knob that turns it on`).toBeDefined();
      // The knobs it names, and its own sizes (durations, maxima), but none of its other chances.
      const sizes = Object.keys(fault.knobs ?? {}).filter((knob) => !knob.endsWith('Pct'));
      const on = Object.fromEntries([...fault.randomWhen!, ...sizes].map((knob) => [knob, knob.endsWith('Pct') ? 100 : 200]));
      expect(drawnKinds(bases[stage], on, stage), `${name} with ${JSON.stringify(on)}`).toContain(name);
      expect(drawnKinds(bases[stage], {}, stage), `${name} with every knob off`).not.toContain(name);
    }
  });

  it('every history record has a real action or the reason it has none, and a band that ends ends on a known record', () => {
    for (const [record, spec] of Object.entries(FAULT_RECORDS)) {
      if (typeof spec.real === 'function') continue;
      expect(spec.real.simulatedOnly.length, record).toBeGreaterThan(10);
    }
    for (const [record, spec] of Object.entries(FAULT_RECORDS)) if (spec.endedBy !== undefined) expect(FAULT_RECORDS, record).toHaveProperty(spec.endedBy);
    for (const [name, fault] of kinds) for (const record of Object.keys(fault.records)) expect(FAULT_RECORDS[record as keyof typeof FAULT_RECORDS], `${name} writes ${record}`).toBe(fault.records[record as never]);
  });
});
