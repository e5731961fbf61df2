// What one fault kind is (docs/ARCHITECTURE.md "Faults"): the shape of its scripted step, the
// knobs of its random draw, the draw itself, what it does to the simulated world and what ends
// it, the history records it leaves with the real action each takes against PostgreSQL (or the
// reason it has none), and how the timeline draws it. Each file beside this one is one kind;
// `index.ts` registers them and every other part of the testbed reads the registry.
//
// The fault vocabulary sits beside scenarios/ and adapters/ in the layering: the scenario format,
// the real-fault driver, the simulator and the reports read it, and it reads none of them. What
// it changes in the simulator it reaches through `FaultWorld`, which the nemesis (sim/nemesis.ts)
// implements.

import { z } from 'zod';
import type { FaultKind } from '../model/history.ts';

/**
 * Where a knob is set: the random profile (`faults.profile`), drawn at the nemesis ticks and at
 * time 0; `coordination.faults`, drawn at the coordination ticks; or `federation.faults`, drawn at
 * the federation ticks.
 */
export type KnobStage = 'profile' | 'coordination' | 'federation';

/** One knob of a random fault: a non-negative integer, unit last in its name, default 0 (no fault). */
export interface FaultKnob<St extends KnobStage = KnobStage> {
  readonly stage: St;
  readonly schema: z.ZodNumber;
  /**
   * Swarm testing keeps this knob as set ('keep') or keeps, scales down or zeroes it ('scale').
   * Swarm testing picks the profile's mix only: the other stages' knobs are all 'keep'.
   */
  readonly swarm: 'scale' | 'keep';
  readonly doc: string;
}

/** The knobs a kind declares, by name. */
export type Knobs = Readonly<Record<string, FaultKnob>>;
/** The values of a kind's knobs at a tick. */
export type KnobValues<KN extends Knobs> = Readonly<Record<keyof KN & string, number>>;

/** The draws a fault makes: the plan's seeded streams (sim/prng.ts) have this shape. */
export interface Draw {
  int(min: number, max: number): number;
  chance(pct: number): boolean;
  pick<T>(items: ReadonlyArray<T>): T;
}

/**
 * One tick of a plan's nemesis, coordination or federation stream (or, for a 'start' draw, one
 * controller at time 0). The knobs are not here: each draw is handed the values of its own.
 */
export interface Tick {
  readonly at: number;
  /** The controller a 'start' draw is for (1-based); 0 on a tick. */
  readonly controller: number;
  /** The sites and the domains, on a federation tick. */
  readonly federation: { readonly sites: number; readonly domains: ReadonlyArray<string> } | null;
  /** `db`, `provider` and every controller, in that order. */
  readonly nodes: ReadonlyArray<string>;
  readonly controllers: number;
}

/** A controller as a fault sees it. */
export interface FaultedNode {
  readonly name: string;
  readonly proc: string;
  readonly down: boolean;
  pausedUntil: number;
  readonly clock: {
    skew(now: number, offsetMs: number, driftPpm: number): void;
    readonly offsetMs: number;
    readonly driftPpm: number;
  };
}

/** What a site learned of one domain's authority when its WAN links came back. */
export interface LearnedAuthority {
  readonly domain: string;
  readonly site: number;
  readonly epoch: number;
}

/** What the federation faults change: the sites' WAN links and the domains' authority (sim/federation/federation.ts). */
export interface FederationWorld {
  /** Cuts `site` off the other sites and the federation's authority service: the nodes cut, or null when it is cut already. */
  cutSite(site: number): ReadonlyArray<string> | null;
  /** Restores a cut site's links; it learns who holds every domain. What it learned, or null when it was not cut. */
  healSite(site: number): ReadonlyArray<LearnedAuthority> | null;
  /** Moves the authority of `domain` to `to` (absent: the next site reached) under a higher epoch: the record to write. */
  failover(domain: string, to: number | undefined): Readonly<Record<string, unknown>>;
  /** Writes a new authority epoch to the store from the database host, before the new site acts on it. */
  establish(role: string, epoch: number): Promise<void>;
}

/** What a fault may read and change in the simulated world; the nemesis is the one implementation. */
export interface FaultWorld {
  readonly now: number;
  /** Records the fault in the history and, with real faults, applies it for real. */
  record(f: FaultKind, value: Readonly<Record<string, unknown>>): Promise<void>;
  /** Puts this fault's end (`FaultPackage.end`) on the agenda at `time`. */
  endAt(time: number): void;
  readonly network: {
    block(from: string, to: string): void;
    unblock(from: string, to: string): void;
    extraLossPct: number;
  };
  controller(name: string): FaultedNode | undefined;
  /** Crashes the controller's process; its next incarnation starts after `downMs`. */
  crash(node: FaultedNode, downMs: number): void;
  readonly database: {
    readonly down: boolean;
    /** Stops (true) or starts (false) the database; stopping breaks every connection. */
    setDown(down: boolean): void;
  };
  /** Replaces the store's durable state with the image from `ageMs` ago (failover, restore). */
  replaceImage(f: 'db-failover' | 'db-restore', ageMs: number, extra: Readonly<Record<string, unknown>>): Promise<void>;
  scriptProviderTimeouts(count: number, appliedPct: number): void;
  /** Hands a coordination fault to the coordination layer, when the run has one. */
  coordination(fault: { readonly f: string; readonly at: number }): void;
  /** The federation, when the run has one. */
  readonly federation: FederationWorld | null;
}

export type RealFaultOutcome =
  | { readonly kind: 'applied'; readonly action: string }
  | { readonly kind: 'simulated-only'; readonly reason: string };

/** What the real actions need of a primary/replica pair behind fault proxies (adapters/faults/real-faults.ts). */
export interface RealTarget {
  partition(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome>;
  heal(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome>;
  messageLoss(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome>;
  /** Terminates the database sessions of the controller the value names. */
  killSessions(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome>;
  crashPrimary(): Promise<RealFaultOutcome>;
  restartPrimary(): Promise<RealFaultOutcome>;
  failover(cutOnly: boolean): Promise<RealFaultOutcome>;
  restore(backupOnly: boolean): Promise<RealFaultOutcome>;
  /** Heals every link and starts the primary if it is down. */
  healEverything(): Promise<RealFaultOutcome>;
}

/** The real action of a history record, or why it has none. */
export type RealAction = ((target: RealTarget, value: Readonly<Record<string, unknown>>) => Promise<RealFaultOutcome>) | { readonly simulatedOnly: string };

/** A kind of history fault record. */
export interface FaultRecord {
  readonly real: RealAction;
  /** Colour of its band on the lease timeline (absent: the default grey). */
  readonly colour?: string;
  /** The record that ends this one's band (a `heal` ends a `partition`). */
  readonly endedBy?: string;
  /** Its band lasts to the end of the run. */
  readonly untilEnd?: boolean;
  /** Its real action leaves the primary elsewhere or restarted: the store reconnects. */
  readonly movesPrimary?: boolean;
}

/** The schema of a scripted step: an object tagged by `f`, with its time `at`. */
export type StepSchema = z.ZodObject<{ f: z.ZodLiteral<string>; at: z.ZodNumber } & z.ZodRawShape>;

// `KN` is the kind's knobs as declared, so that each stage's block of knobs, and the names in it,
// can be derived from the registry (index.ts) with their types.
export interface FaultPackage<S extends StepSchema, KN extends Knobs = {}, R extends FaultKind = never, F = z.output<S>> {
  /** The scripted step (`faults.scripted[]`, plan steps). */
  readonly schema: S;
  /**
   * Its knobs, all of the stage its draw is on (the profile for a kind with no draw): `faultKnob`
   * for the profile, `coordinationKnob` or `federationKnob`. The profile, `coordination.faults` and
   * `federation.faults` are each the union of the kinds' knobs of that stage and a few of the run's
   * own. A knob may be one the simulator reads rather than the draw (`newLeaderCrashPct`).
   */
  readonly knobs?: KN;
  /**
   * Drawn at each tick of its stream, in registry order: one chance, then its parameters only when
   * the chance came up. 'start' draws once per controller at time 0, from the plan's clock stream;
   * 'nemesis', 'coordination' and 'federation' at each tick of the profile's, the coordination or
   * the federation interval. `mine` holds the values of its knobs at that tick (of the profile,
   * the swarm's pick of them).
   */
  readonly draw?: { readonly on: 'start' | 'nemesis' | 'coordination' | 'federation'; at(tick: Tick, mine: KnobValues<KN>, stream: Draw): F | null };
  /** Its knobs that make this kind happen at random when one is above 0. Absent: scripted only. */
  readonly randomWhen?: ReadonlyArray<NoInfer<keyof KN & string>>;
  /**
   * The kind replaces the durable state with an image `ageMs(fault)` old: the simulated run keeps
   * images at a cadence; a real one prepares the image ahead of time with the `prepare` record value.
   */
  readonly image?: { ageMs(fault: F): number; readonly prepare: Readonly<Record<string, unknown>> };
  /** Applied even after the liveness phase healed the world (a clock offset set at time 0). */
  readonly evenWhenHealed?: boolean;
  /** Starts the fault; a timed one calls `world.endAt`. */
  apply(world: FaultWorld, fault: F): Promise<void>;
  end?(world: FaultWorld, fault: F): Promise<void>;
  /** The history records this kind writes. */
  readonly records: Readonly<Record<R, FaultRecord>>;
}

/** Declares a fault kind; its knobs and record names are inferred from the declaration. */
export function defineFault<S extends StepSchema, KN extends Knobs = {}, R extends FaultKind = never>(p: FaultPackage<S, KN, R>): FaultPackage<S, KN, R> {
  return p;
}

/** A record without a real counterpart, with the reason. */
export const simulatedOnly = (reason: string): RealAction => ({ simulatedOnly: reason });

/** Fields of scripted steps. */
export const ms = z.number().int().nonnegative();
export const pct = z.number().int().min(0).max(100);
export const node = z.string().regex(/^(c[1-9][0-9]?|db|provider|operator)$/, "must be 'c<n>', 'db', 'provider' or 'operator'");

/** A knob of the random profile (`faults.profile`). */
export const faultKnob = (schema: z.ZodNumber, doc: string, swarm: 'scale' | 'keep' = 'scale'): FaultKnob<'profile'> => ({ stage: 'profile', schema, swarm, doc });
/** A knob of `coordination.faults`. */
export const coordinationKnob = (schema: z.ZodNumber, doc: string): FaultKnob<'coordination'> => ({ stage: 'coordination', schema, swarm: 'keep', doc });
/** A knob of `federation.faults`. */
export const federationKnob = (schema: z.ZodNumber, doc: string): FaultKnob<'federation'> => ({ stage: 'federation', schema, swarm: 'keep', doc });

/** `coordination.faults` or `federation.faults` as a scenario writes it: any subset of `knobs`, each defaulting to 0, and no other field. */
export function knobBlock<N extends string>(knobs: Readonly<Record<N, FaultKnob>>) {
  const shape = Object.fromEntries(Object.entries<FaultKnob>(knobs).map(([name, knob]) => [name, knob.schema.default(0)]));
  return z.object(shape as Record<N, z.ZodDefault<z.ZodNumber>>).strict();
}
