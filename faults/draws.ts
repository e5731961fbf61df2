// The random faults of a plan, drawn by the fault kinds themselves (their `draw`, in registry
// order): the 'start' draws once per controller from the clock stream, then the profile's nemesis
// ticks from the nemesis stream, the coordination ticks from the coordination stream and the
// federation ticks from the federation stream. Each
// stream is the plan's own (sim/prng.ts), so a scenario without a kind's knobs draws exactly what
// it drew before the kind existed.

import type { CoordinationFaultOptions } from './coordination-knobs.ts';
import type { FederationFaultOptions } from './federation-knobs.ts';
import { FAULT_PACKAGES, type ScriptedFault } from './index.ts';
import type { FaultOptions } from './knobs.ts';
import type { Draw, Tick } from './package.ts';

type Stage = 'start' | 'nemesis' | 'coordination' | 'federation';

type DrawAt = (tick: Tick, mine: Readonly<Record<string, number>>, stream: Draw) => ScriptedFault | null;

/** The draws of each stage, in registry order. */
const DRAWS: Readonly<Record<Stage, ReadonlyArray<DrawAt>>> = {
  start: drawnOn('start'),
  nemesis: drawnOn('nemesis'),
  coordination: drawnOn('coordination'),
  federation: drawnOn('federation'),
};

function drawnOn(stage: Stage): DrawAt[] {
  return Object.values(FAULT_PACKAGES).flatMap((p) => (p.draw?.on === stage ? [p.draw.at as DrawAt] : []));
}

/** Each kind's draw of `stage` at `tick`; `knobs` are the values of the stage's block, of which each kind reads its own. */
function drawTick(stage: Stage, tick: Tick, knobs: Readonly<Record<string, number>>, stream: Draw, out: ScriptedFault[]): void {
  for (const at of DRAWS[stage]) {
    const fault = at(tick, knobs, stream);
    if (fault !== null) out.push(fault);
  }
}

/** The clock of each controller, at time 0. */
export function drawStartFaults(knobs: FaultOptions, controllers: number, stream: Draw): ScriptedFault[] {
  const out: ScriptedFault[] = [];
  const nodes = controllerNodes(controllers);
  for (let c = 1; c <= controllers; c++) drawTick('start', { at: 0, controller: c, federation: null, nodes, controllers }, knobs, stream, out);
  return out;
}

/** Faults started at the profile's nemesis ticks over the safety phase. */
export function drawNemesisFaults(knobs: FaultOptions, controllers: number, horizonMs: number, stream: Draw): ScriptedFault[] {
  const out: ScriptedFault[] = [];
  if (knobs.nemesisIntervalMs <= 0) return out;
  const nodes = controllerNodes(controllers);
  for (let at = knobs.nemesisIntervalMs; at < horizonMs; at += knobs.nemesisIntervalMs) drawTick('nemesis', { at, controller: 0, federation: null, nodes, controllers }, knobs, stream, out);
  return out;
}

/** Coordination faults at the coordination ticks over the safety phase; a tick's controllers are the bootstrap voters. */
export function drawCoordinationFaults(options: CoordinationFaultOptions, voters: number, horizonMs: number, stream: Draw): ScriptedFault[] {
  const out: ScriptedFault[] = [];
  if (options.intervalMs <= 0) return out;
  const nodes = controllerNodes(voters);
  for (let at = options.intervalMs; at < horizonMs; at += options.intervalMs) drawTick('coordination', { at, controller: 0, federation: null, nodes, controllers: voters }, options, stream, out);
  return out;
}

/** Federation faults at the federation ticks over the safety phase: site cuts and authority failovers. */
export function drawFederationFaults(federation: { readonly sites: number; readonly domains: ReadonlyArray<string>; readonly faults: FederationFaultOptions }, controllers: number, horizonMs: number, stream: Draw): ScriptedFault[] {
  const out: ScriptedFault[] = [];
  const intervalMs = federation.faults.intervalMs;
  if (intervalMs <= 0) return out;
  const nodes = controllerNodes(controllers);
  const sites = { sites: federation.sites, domains: federation.domains };
  for (let at = intervalMs; at < horizonMs; at += intervalMs) drawTick('federation', { at, controller: 0, federation: sites, nodes, controllers }, federation.faults, stream, out);
  return out;
}

function controllerNodes(controllers: number): string[] {
  return ['db', 'provider', ...Array.from({ length: controllers }, (_, i) => `c${i + 1}`)];
}
