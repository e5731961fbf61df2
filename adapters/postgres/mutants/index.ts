// The SQL race mutants: variants of the PostgreSQL store, each with one real concurrency bug in
// its SQL (mutant.ts). Selected as `--adapter postgres-mutant:<name>`; serial sweeps pass on
// every one of them, `testbed stress` catches each. One entry a mutant, in report order: what it
// breaks, where it comes from, what catches it, and the command bodies of its file, which tells
// the race in prose.

import { capacityCountThenInsert } from './capacity-count-then-insert.ts';
import { idempotencyCheckThenInsert } from './idempotency-check-then-insert.ts';
import { postgresMutants, type PostgresMutant } from './mutant.ts';
import { renewCheckThenExtend } from './renew-check-then-extend.ts';
import { releaseCheckThenDelete } from './release-check-then-delete.ts';
import { tokenFromUnlockedRead } from './token-from-unlocked-read.ts';
import { unlockedFunction } from './unlocked-function.ts';

export { mutantStoreOptions, type PostgresMutant } from './mutant.ts';

export const POSTGRES_MUTANTS: ReadonlyArray<PostgresMutant> = postgresMutants({
  'token-from-unlocked-read': {
    bug: 'Acquire reads the scope token counter and the lease without locking the counter row, so two concurrent acquires issue the same token to two owners',
    breaks: '000 §24, §77–§78, §203–§204',
    source: 'issue "Real concurrency on PostgreSQL" (acquire reading the token counter without a row lock); 003 (lock tokens not unique per acquisition)',
    caughtBy: ['interleave', 'stress'],
    scenario: 'sql-contention',
    commands: tokenFromUnlockedRead,
  },
  'idempotency-check-then-insert': {
    bug: 'IdempotencyBegin reads the key without a lock and starts a record with an upsert that overwrites, so two concurrent first requests are both told New',
    breaks: '000 §43–§49, §72, §283',
    source: 'issue "Real concurrency on PostgreSQL" (an idempotency record checked then inserted without the unique constraint doing the work)',
    caughtBy: ['interleave', 'stress'],
    scenario: 'sql-contention',
    commands: idempotencyCheckThenInsert,
  },
  'release-check-then-delete': {
    bug: "Release checks holder and token in one unlocked statement and deletes the scope's lease row in the next, so a release racing its own expiry deletes the next holder's lease",
    breaks: '000 §25–§30, §78, §280',
    source: '002 (key-only force release destroying a newer holder\'s lease); issue "Real concurrency on PostgreSQL" (check then delete in two statements)',
    caughtBy: ['interleave', 'stress'],
    scenario: 'sql-release-race',
    commands: releaseCheckThenDelete,
  },
  'capacity-count-then-insert': {
    bug: 'AcquirePermit sums the units in use and inserts the permit without locking the scope, so two concurrent admissions both take the same free units',
    breaks: '000 §72, §93–§97, §293',
    source: 'issue "Real concurrency on PostgreSQL" (a capacity count read then inserted without a lock)',
    caughtBy: ['interleave', 'stress'],
    scenario: 'sql-contention',
    commands: capacityCountThenInsert,
  },
  'renew-check-then-extend': {
    bug: "Renew checks holder, token and expiry in one unlocked statement and extends the scope's lease row in the next, so a renewal racing its own expiry is granted while another holder owns the scope",
    breaks: '000 §31–§33, §78, §282',
    source: '000 §282 (renewal race test); 002 (checks and writes that do not bind to the lease observed)',
    caughtBy: ['interleave', 'stress'],
    scenario: 'sql-renewal-race',
    commands: renewCheckThenExtend,
  },
  // A race between two statements of one PL/pgSQL function (unlocked-function.ts): only the
  // scheduling points inside functions (--interleave random-functions) can order another call
  // between them; --interleave random holds the whole call as one statement.
  'acquire-function-unlocked': {
    bug: "testbed_acquire reads the scope's lease and token counter without locking the counter row and writes them in later statements of the same function, so two acquires of a free scope both take it with one token",
    breaks: '000 §24, §77–§78, §203–§204',
    source: '003 (lock tokens that were not unique per acquisition); a check and a write inside one server-side function',
    caughtBy: ['interleave'],
    scenario: 'sql-contention',
    strategy: 'random-functions',
    commands: {},
    functions: unlockedFunction('Acquire'),
  },
});

export const POSTGRES_MUTANT_PREFIX = 'postgres-mutant:';

/** The mutant a `postgres-mutant:<name>` spec names, or undefined. */
export function findPostgresMutant(spec: string): PostgresMutant | undefined {
  const name = spec.startsWith(POSTGRES_MUTANT_PREFIX) ? spec.slice(POSTGRES_MUTANT_PREFIX.length) : spec;
  return POSTGRES_MUTANTS.find((mutant) => mutant.name === name);
}
