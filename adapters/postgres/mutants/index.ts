// The SQL race mutants: variants of the PostgreSQL store, each with one real concurrency bug in
// its SQL (mutant.ts). Selected as `--adapter postgres-mutant:<name>`; serial sweeps pass on
// every one of them, `testbed stress` catches each.

import { capacityCountThenInsert } from './capacity-count-then-insert.ts';
import { idempotencyCheckThenInsert } from './idempotency-check-then-insert.ts';
import type { PostgresMutant } from './mutant.ts';
import { renewCheckThenExtend } from './renew-check-then-extend.ts';
import { releaseCheckThenDelete } from './release-check-then-delete.ts';
import { tokenFromUnlockedRead } from './token-from-unlocked-read.ts';

export type { PostgresMutant } from './mutant.ts';

export const POSTGRES_MUTANTS: ReadonlyArray<PostgresMutant> = [
  tokenFromUnlockedRead,
  idempotencyCheckThenInsert,
  releaseCheckThenDelete,
  capacityCountThenInsert,
  renewCheckThenExtend,
];

export const POSTGRES_MUTANT_PREFIX = 'postgres-mutant:';

/** The mutant a `postgres-mutant:<name>` spec names, or undefined. */
export function findPostgresMutant(spec: string): PostgresMutant | undefined {
  const name = spec.startsWith(POSTGRES_MUTANT_PREFIX) ? spec.slice(POSTGRES_MUTANT_PREFIX.length) : spec;
  return POSTGRES_MUTANTS.find((mutant) => mutant.name === name);
}
