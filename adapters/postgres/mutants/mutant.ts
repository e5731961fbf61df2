// What a SQL race mutant is: the real PostgreSQL store (adapters/postgres/store.ts) with the body
// of one or two commands replaced by a variant that has one real concurrency bug in its SQL: a
// read that should hold a lock and does not, or a check and a write that should be one statement
// and are two. Run one command at a time (every serial simulated run: the simulator awaits each
// store call) a mutant decides exactly as the real store does, so serial sweeps pass on it; only
// commands that run at once, in sessions of their own, can show its bug: under controlled
// interleaving (`--interleave`, replayable) or free-running (`testbed stress`). The catalogue
// (index.ts) declares them as a table keyed by name, which `postgresMutants` reads.

import type { CommandKind } from '../../../model/commands.ts';
import type { InterleaveStrategy } from '../../interleaving.ts';
import type { CommandBodies, FunctionVariants, PostgresStoreOptions } from '../store.ts';

export interface PostgresMutant {
  /** Selected as `--adapter postgres-mutant:<name>`. */
  readonly name: string;
  /** The bug, in one sentence. */
  readonly bug: string;
  /** The sections of seed 000 it breaks. */
  readonly breaks: string;
  /** Where the bug comes from. */
  readonly source: string;
  /**
   * The modes that catch it: `interleave` (a sweep of `scenario` with `--interleave`) and
   * `stress`. A race between a check and its own lease's expiry needs store time to pass between
   * two statements of one call, which interleaving gives only within a batch's window (25 virtual
   * ms, docs/ARCHITECTURE.md "Controlled interleaving"): it catches such a race only where the
   * scenario makes the call reach the store that close to the expiry. `race`: `testbed race`
   * (every interleaving of small sets of calls) fails on it.
   */
  readonly caughtBy: ReadonlyArray<'interleave' | 'stress' | 'race'>;
  /** The scenario whose interleaved sweep catches it (with `interleave` in `caughtBy`). */
  readonly scenario?: string;
  /** The `--interleave` strategy of that sweep (default random): `random-functions` for a race inside one server-side function. */
  readonly strategy?: InterleaveStrategy;
  /**
   * The command kinds whose race shows the bug (`testbed race --kinds`): the mutated commands and
   * the one they race with.
   */
  readonly raceKinds: ReadonlyArray<CommandKind>;
  /** The command bodies that replace the real store's (everything else is the real store). */
  readonly commands: CommandBodies;
  /** One-statement commands whose server-side function is replaced (store.ts `functions`). */
  readonly functions?: FunctionVariants;
}

/** The store options that make the PostgreSQL store this mutant. */
export function mutantStoreOptions(mutant: PostgresMutant): Pick<PostgresStoreOptions, 'name' | 'commands' | 'functions'> {
  return { name: `postgres-mutant:${mutant.name}`, commands: mutant.commands, ...(mutant.functions === undefined ? {} : { functions: mutant.functions }) };
}

/** The mutants of a table, in its order, each named by its key. */
export function postgresMutants(table: Readonly<Record<string, Omit<PostgresMutant, 'name'>>>): ReadonlyArray<PostgresMutant> {
  return Object.entries(table).map(([name, declared]) => ({ name, ...declared }));
}
