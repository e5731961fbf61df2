// The race mutants inside one server-side function: the real store, with one of its four command
// functions (migrations/002/) replaced by a copy that does not lock the scope's counter row, the
// row every command of a scope serializes on (migrations/002/request-log.ts, the lock order). The
// copy reads the lease, decides and writes in later statements of the same function, as the real one does;
// without the lock, another call's statements can run between its read and its write. Run one
// call at a time it decides exactly as the real store does, so serial sweeps pass. A statement-
// level schedule cannot show the race, since the whole function is one statement: only the
// scheduling points inside functions (adapters/postgres/interleave/function-points.ts) can.
//
// The copy is named `testbed_<command>_unlocked`, with the real function's parameters; the store
// installs it after its migrations and its fast path calls it in place of the real one, as one
// autocommit statement (store.ts `functions`): no statement boundary of the client's lies between
// its read and its write.

import { ACQUIRE } from '../../adapters/postgres/migrations/002/acquire.ts';
import { MUTATE } from '../../adapters/postgres/migrations/002/mutate.ts';
import { RELEASE } from '../../adapters/postgres/migrations/002/release.ts';
import { RENEW } from '../../adapters/postgres/migrations/002/renew.ts';
import type { FastCommand } from '../../adapters/postgres/lease-functions.ts';
import type { FunctionVariants } from '../../adapters/postgres/store.ts';

const DEFINITIONS: Readonly<Record<FastCommand['kind'], { readonly name: string; readonly sql: string }>> = {
  Acquire: { name: 'acquire', sql: ACQUIRE },
  Renew: { name: 'renew', sql: RENEW },
  Release: { name: 'release', sql: RELEASE },
  Mutate: { name: 'mutate', sql: MUTATE },
};

/** The scope lock of every command function (GATE_THEN_SCOPE and the acquire's later read). */
const SCOPE_LOCK = /(FROM scope_counter c WHERE c\.scope = p_scope) FOR UPDATE/g;

/** The text of the unlocked copy of `kind`'s function. */
export function unlockedFunctionSql(kind: FastCommand['kind']): string {
  const { name, sql } = DEFINITIONS[kind];
  const copy = sql.replace(`CREATE FUNCTION testbed_${name}(`, `CREATE FUNCTION testbed_${name}_unlocked(`).replace(SCOPE_LOCK, '$1');
  if (copy === sql || copy.includes('p_scope FOR UPDATE') || !copy.includes(`testbed_${name}_unlocked(`)) throw new Error(`testbed_${name} no longer has the scope lock this mutant removes`);
  return copy;
}

/** The function variants of the mutant whose `kind` function does not lock the scope. */
export function unlockedFunction(kind: FastCommand['kind']): FunctionVariants {
  return { [kind]: { name: `testbed_${DEFINITIONS[kind].name}_unlocked`, sql: unlockedFunctionSql(kind) } };
}
