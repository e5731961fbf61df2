// What a SQL race mutant is: the real PostgreSQL store (adapters/postgres/store.ts) with the body
// of one or two commands replaced by a variant that has one real concurrency bug in its SQL: a
// read that should hold a lock and does not, or a check and a write that should be one statement
// and are two. Run one command at a time (every serial simulated run: the simulator awaits each
// store call) a mutant decides exactly as the real store does, so serial sweeps pass on it; only
// commands that run at once, in sessions of their own, can show its bug: under controlled
// interleaving (`--interleave`, replayable) or free-running (`testbed stress`). The catalogue
// (index.ts) declares them in the shape of every mutant (../entry.ts), each with the SQL it
// `patches`.

import type { PostgresStoreOptions } from '../../adapters/postgres/store.ts';
import type { SqlMutant } from '../entry.ts';

/** A SQL race mutant, under the name the PostgreSQL store's tests and commands know it by. */
export type PostgresMutant = SqlMutant;

/** The store options that make the PostgreSQL store this mutant. */
export function mutantStoreOptions(mutant: SqlMutant): Pick<PostgresStoreOptions, 'name' | 'commands' | 'functions'> {
  const { commands, functions } = mutant.patches;
  return { name: `postgres-mutant:${mutant.name}`, commands, ...(functions === undefined ? {} : { functions }) };
}
