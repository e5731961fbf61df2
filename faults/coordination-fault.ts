// The shapes most coordination kinds share (seed 001): they hand the fault to the coordination
// layer, which resolves "the leader" and records what it does when the fault fires
// (sim/coordination/coordination-nemesis.ts), and they are drawn at a coordination tick with one
// chance knob and, for a fault that lasts, a longest-duration knob. Apart from package.ts, which
// says what any kind is.

import { z } from 'zod';
import type { FaultKind } from '../model/history.ts';
import { defineFault, ms, type FaultKnob, type FaultRecord, type FaultWorld } from './package.ts';

/** Forwards a coordination fault to the coordination layer, which records what it does. */
export async function toCoordination(world: FaultWorld, fault: { readonly f: string; readonly at: number }): Promise<void> {
  world.coordination(fault);
}

/** The coordination knobs of a kind drawn with one chance per tick, and the records the coordination layer writes for it. */
interface CoordinationDraw<KN extends CoordinationKnobs, R extends FaultKind> {
  readonly knobs: KN;
  /** The knob of its chance (percent) per coordination tick. */
  readonly chance: NoInfer<keyof KN & string>;
  /** History records the coordination layer writes for it, beyond the ones the nemesis writes (`partition`, `pause`...). */
  readonly records?: Readonly<Record<R, FaultRecord>>;
}

type CoordinationKnobs = Readonly<Record<string, FaultKnob<'coordination'>>>;

/**
 * A coordination fault that lasts a while (it acts on whoever leads, on all the voters, or on a
 * subsystem beside them): drawn at a coordination tick with the chance of its knob `chance`, for
 * 1 to `longest` ms.
 */
export function timedCoordinationFault<N extends string, KN extends CoordinationKnobs, R extends FaultKind = never>(f: N, spec: CoordinationDraw<KN, R> & { readonly longest: NoInfer<keyof KN & string> }) {
  const { chance, longest } = spec;
  return defineFault({
    schema: z.object({ f: z.literal(f), at: ms, durationMs: ms }).strict(),
    knobs: spec.knobs,
    randomWhen: [chance],
    draw: {
      on: 'coordination',
      at: (tick, mine, stream) => (stream.chance(mine[chance]) ? { f, at: tick.at, durationMs: stream.int(1, Math.max(1, mine[longest])) } : null),
    },
    apply: toCoordination,
    records: spec.records ?? ({} as Readonly<Record<R, FaultRecord>>),
  });
}

/**
 * A coordination fault of one instant, with nothing to choose (it acts on whoever leads, or on the
 * cluster as a whole): drawn at a coordination tick with the chance of its knob `chance`.
 */
export function instantCoordinationFault<N extends string, KN extends CoordinationKnobs, R extends FaultKind>(f: N, spec: CoordinationDraw<KN, R>) {
  const { chance } = spec;
  return defineFault({
    schema: z.object({ f: z.literal(f), at: ms }).strict(),
    knobs: spec.knobs,
    randomWhen: [chance],
    draw: { on: 'coordination', at: (tick, mine, stream) => (stream.chance(mine[chance]) ? { f, at: tick.at } : null) },
    apply: toCoordination,
    records: spec.records ?? ({} as Readonly<Record<R, FaultRecord>>),
  });
}

/** An operator's membership request naming `node`: scripted only, committed through the leader. */
export function membershipFault<N extends string>(f: N, target: z.ZodType<string>) {
  return defineFault({ schema: z.object({ f: z.literal(f), at: ms, node: target }).strict(), apply: toCoordination, records: {} });
}
