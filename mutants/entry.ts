// A mutant (docs/ARCHITECTURE.md "Mutants"): a deliberately broken variant of the controller or of
// a store, with exactly one documented bug drawn from a real failure. Every mutant, whatever it
// breaks, is declared in one shape: its name, the bug in one line, the real failure it comes from,
// the rule it breaks, the gate rows it credits and the scenarios that must catch it; and one of
// three ways the bug is made:
//
// - `flips`: a policy flag of model/controller-policy.ts switched away from its correct value
//   (the client protocol's decisions; policy/, one table a theme);
// - `wraps`: the correct store wrapped so that one rule breaks (store/, one file a mutant, their
//   declarations in store/declarations.ts);
// - `patches`: the PostgreSQL store with the SQL of one or two commands replaced by a variant that
//   races (sql/, one file a mutant, the table in sql/index.ts).
//
// A table is keyed by the mutant's name (`mutantTable`), in the order of the mutation report: a
// new mutant goes at the end of its table. index.ts is the catalogue of the mutants the simulator
// runs (`flips` and `wraps`); sql/index.ts, loaded on demand because it reaches the PostgreSQL
// client, holds the `patches` ones.

import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import type { StoreFactory } from '../adapters/port.ts';
import type { CommandBodies, FunctionVariants } from '../adapters/postgres/store.ts';
import type { CommandKind } from '../model/commands.ts';
import { CORRECT_POLICY, type ControllerPolicy } from '../model/controller-policy.ts';
import type { ScenarioName } from '../scenarios/catalog.ts';

/** A row of the gate report (reports/gate-catalogue.ts) by its id: `<seed>-<section>-<slug>`. */
export type GateRowId = `${'000-315' | '000-316' | '000-317' | '001-338' | '001-339' | '001-340'}-${string}`;

/** What every mutant declares: its one bug, where it comes from, and what must catch it. */
export interface MutantDeclaration {
  /** kebab-case, stable; the CLI selects it with `--adapter mutant:<name>` (`postgres-mutant:<name>` for SQL). */
  readonly name: string;
  /** The one rule it breaks, in one line. */
  readonly bug: string;
  /** The real failure it comes from: a seed section or a seed 002/003 commit or PR. */
  readonly source: string;
  /**
   * The rule it breaks, as model/SEMANTICS.md or a checker names it (for example `Leases: Renew
   * step 2`), or, for a SQL race, the seed sections that state it.
   */
  readonly rule: string;
  /** The gate rows whose rule it shows can fail: catching it is part of their proof. */
  readonly rows: ReadonlyArray<GateRowId>;
  /** Scenarios that must catch it, tried in this order (a SQL race: the one whose interleaved sweep does). */
  readonly scenarios: ReadonlyArray<ScenarioName>;
}

/** What the simulator's mutant hunt reads of a policy or store mutant. */
interface HuntedDeclaration extends MutantDeclaration {
  /**
   * The history checkers that must catch it (the mutant hunt runs without the differential, so
   * these, not an outcome comparison, are what it proves).
   */
  readonly invariants?: ReadonlyArray<string>;
  /**
   * Why no workload of the simulator can reach the bug, for a store mutant that only the
   * command-level check catches (a rule no controller exercises). Such a mutant names no scenario
   * and no invariant; the hunt does not run it, and its catch is the check's.
   */
  readonly checkOnly?: string;
}

/** A policy mutant: the client protocol with one flag of model/controller-policy.ts flipped. */
export interface PolicyMutant extends HuntedDeclaration {
  /** The one flag it switches away from its correct value (CORRECT_POLICY). */
  readonly flips: keyof ControllerPolicy;
  readonly wraps?: never;
  readonly patches?: never;
}

/** A store mutant: given the correct store, the broken one. */
export interface StoreMutant extends HuntedDeclaration {
  readonly wraps: (base: StoreFactory) => StoreFactory;
  readonly flips?: never;
  readonly patches?: never;
}

/** What a store mutant's entry in store/declarations.ts says: all but its name and how it `wraps` the store. */
export type StoreDeclaration = Omit<StoreMutant, 'name' | 'wraps' | 'flips' | 'patches'>;

/** The SQL a race mutant puts in place of the real PostgreSQL store's (everything else is the real store). */
export interface SqlPatches {
  /** The command bodies that replace the real store's. */
  readonly commands: CommandBodies;
  /** One-statement commands whose server-side function is replaced (adapters/postgres/store.ts `functions`). */
  readonly functions?: FunctionVariants;
}

/**
 * A SQL race mutant (sql/mutant.ts): run one command at a time it decides exactly as the real
 * store does; only commands that run at once can show its bug.
 */
export interface SqlMutant extends MutantDeclaration {
  readonly patches: SqlPatches;
  /**
   * The modes that catch it: `interleave` (a sweep of its scenario with `--interleave`) and
   * `stress`. A race between a check and its own lease's expiry needs store time to pass between
   * two statements of one call, which interleaving gives only within a batch's window (25 virtual
   * ms, docs/ARCHITECTURE.md "Controlled interleaving"): it catches such a race only where the
   * scenario makes the call reach the store that close to the expiry. `race`: `testbed race`
   * (every interleaving of small sets of calls) fails on it.
   */
  readonly caughtBy: ReadonlyArray<'interleave' | 'stress' | 'race'>;
  /** The `--interleave` strategy of its sweep (default random): `random-functions` for a race inside one server-side function. */
  readonly strategy?: InterleaveStrategy;
  /** The command kinds whose race shows the bug (`testbed race --kinds`): the mutated commands and the one they race with. */
  readonly raceKinds: ReadonlyArray<CommandKind>;
  readonly flips?: never;
  readonly wraps?: never;
}

/** A mutant the simulator runs in the testbed's own process: a policy or a store mutant. */
export type Mutant = PolicyMutant | StoreMutant;

/** Any mutant of the catalogue. */
export type MutantEntry = Mutant | SqlMutant;

/** The mutants of a table keyed by name, in its order, each named by its key. */
export function mutantTable<M extends MutantEntry>(table: Readonly<Record<string, Omit<M, 'name'>>>): ReadonlyArray<M> {
  return Object.entries(table).map(([name, declared]) => ({ name, ...declared }) as M);
}

/** The mutant of `list` that `spec` names, with or without `prefix`, or undefined. */
export function findByName<M extends MutantEntry>(list: ReadonlyArray<M>, prefix: string, spec: string): M | undefined {
  const name = spec.startsWith(prefix) ? spec.slice(prefix.length) : spec;
  return list.find((mutant) => mutant.name === name);
}

/** The controller policy a mutant runs under: its one flag flipped, or undefined for a store mutant. */
export function mutantPolicy(mutant: Mutant): Partial<ControllerPolicy> | undefined {
  return mutant.flips === undefined ? undefined : { [mutant.flips]: !CORRECT_POLICY[mutant.flips] };
}

/** The store a mutant runs on: `base` broken by the mutant's store-level bug, or `base` itself. */
export function mutantStoreFactory(mutant: Mutant, base: StoreFactory): StoreFactory {
  return mutant.wraps === undefined ? base : mutant.wraps(base);
}
