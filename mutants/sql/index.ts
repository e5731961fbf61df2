// The SQL race mutants: variants of the PostgreSQL store, each with one real concurrency bug in
// its SQL (mutant.ts). Selected as `--adapter postgres-mutant:<name>`; serial sweeps pass on
// every one of them, `testbed stress` catches each. One entry a mutant, in report order: what it
// breaks, where it comes from, what catches it, and the SQL it patches: the command bodies of
// its file, which tells the race in prose.

import { capacityCountThenInsert } from './capacity-count-then-insert.ts';
import { idempotencyCheckThenInsert } from './idempotency-check-then-insert.ts';
import { intentTransitionUnlockedRead } from './intent-transition-unlocked-read.ts';
import { jobEndUnlockedRead } from './job-end-unlocked-read.ts';
import { findByName, mutantTable, type SqlMutant } from '../entry.ts';
import { renewCheckThenExtend } from './renew-check-then-extend.ts';
import { reserveCountThenInsert } from './reserve-count-then-insert.ts';
import { roleEpochReadThenWrite } from './role-epoch-read-then-write.ts';
import { releaseCheckThenDelete } from './release-check-then-delete.ts';
import { tokenFromUnlockedRead } from './token-from-unlocked-read.ts';
import { unlockedFunction } from './unlocked-function.ts';

export { mutantStoreOptions, type PostgresMutant } from './mutant.ts';

export const POSTGRES_MUTANTS: ReadonlyArray<SqlMutant> = mutantTable<SqlMutant>({
  'token-from-unlocked-read': {
    bug: 'Acquire reads the scope token counter and the lease without locking the counter row, so two concurrent acquires issue the same token to two owners',
    rule: '000 §24, §77–§78, §203–§204',
    source: 'issue "Real concurrency on PostgreSQL" (acquire reading the token counter without a row lock); 003 (lock tokens not unique per acquisition)',
    rows: [],
    raceKinds: ['Acquire'],
    caughtBy: ['interleave', 'stress', 'race'],
    scenarios: ['sql-contention'],
    patches: { commands: tokenFromUnlockedRead },
  },
  'idempotency-check-then-insert': {
    bug: 'IdempotencyBegin reads the key without a lock and starts a record with an upsert that overwrites, so two concurrent first requests are both told New',
    rule: '000 §43–§49, §72, §283',
    source: 'issue "Real concurrency on PostgreSQL" (an idempotency record checked then inserted without the unique constraint doing the work)',
    rows: [],
    raceKinds: ['IdempotencyBegin'],
    caughtBy: ['interleave', 'stress', 'race'],
    scenarios: ['sql-contention'],
    patches: { commands: idempotencyCheckThenInsert },
  },
  'release-check-then-delete': {
    bug: "Release checks holder and token in one unlocked statement and deletes the scope's lease row in the next, so a release racing its own expiry deletes the next holder's lease",
    rule: '000 §25–§30, §78, §280',
    source: '002 (key-only force release destroying a newer holder\'s lease); issue "Real concurrency on PostgreSQL" (check then delete in two statements)',
    rows: [],
    raceKinds: ['Release', 'Acquire'],
    caughtBy: ['interleave', 'stress', 'race'],
    scenarios: ['sql-release-race'],
    patches: { commands: releaseCheckThenDelete },
  },
  'capacity-count-then-insert': {
    bug: 'AcquirePermit sums the units in use and inserts the permit without locking the scope, so two concurrent admissions both take the same free units',
    rule: '000 §72, §93–§97, §293',
    source: 'issue "Real concurrency on PostgreSQL" (a capacity count read then inserted without a lock)',
    rows: [],
    raceKinds: ['AcquirePermit'],
    caughtBy: ['interleave', 'stress', 'race'],
    scenarios: ['sql-contention'],
    patches: { commands: capacityCountThenInsert },
  },
  'renew-check-then-extend': {
    bug: "Renew checks holder, token and expiry in one unlocked statement and extends the scope's lease row in the next, so a renewal racing its own expiry is granted while another holder owns the scope",
    rule: '000 §31–§33, §78, §282',
    source: '000 §282 (renewal race test); 002 (checks and writes that do not bind to the lease observed)',
    rows: [],
    raceKinds: ['Renew', 'Acquire'],
    caughtBy: ['interleave', 'stress', 'race'],
    scenarios: ['sql-renewal-race'],
    patches: { commands: renewCheckThenExtend },
  },
  // A race between two statements of one PL/pgSQL function (unlocked-function.ts): only the
  // scheduling points inside functions (--interleave random-functions) can order another call
  // between them; --interleave random holds the whole call as one statement.
  'acquire-function-unlocked': {
    bug: "testbed_acquire reads the scope's lease and token counter without locking the counter row and writes them in later statements of the same function, so two acquires of a free scope both take it with one token",
    rule: '000 §24, §77–§78, §203–§204',
    source: '003 (lock tokens that were not unique per acquisition); a check and a write inside one server-side function',
    rows: [],
    raceKinds: ['Acquire'],
    caughtBy: ['interleave', 'race'],
    scenarios: ['sql-contention'],
    strategy: 'random-functions',
    patches: { commands: {}, functions: unlockedFunction('Acquire') },
  },
  // The mutants below are caught by `testbed race` (caughtBy 'race'): its cases put two calls of
  // these commands on one thing from the states where they meet; no scenario's workload does.
  'job-end-unlocked-read': {
    bug: 'FinishJob and ReturnJob read the job row without locking it, so a finish and a return of the same attempt are both told they ended it',
    rule: '001 §84–§85, §93',
    source: "003 (jobs whose attempts were ended twice); a read, decide, write without a row lock",
    rows: [],
    raceKinds: ['FinishJob', 'ReturnJob'],
    scenarios: [],
    caughtBy: ['race'],
    patches: { commands: jobEndUnlockedRead },
  },
  'intent-transition-unlocked-read': {
    bug: 'TransitionIntent reads the intent row without locking it, so two transitions of one intent are both granted from the same state',
    rule: '000 §59–§61, §72',
    source: "002 (checks that do not bind to what they observed); a state machine row read, checked and written without a row lock",
    rows: [],
    raceKinds: ['TransitionIntent'],
    scenarios: [],
    caughtBy: ['race'],
    patches: { commands: intentTransitionUnlockedRead },
  },
  'role-epoch-read-then-write': {
    bug: 'AdvanceRoleEpoch reads the stored epoch without a lock and writes the requested one in a later statement, so two advances are both granted and the lower one, written last, moves the epoch back',
    rule: '001 §92–§95, §297–§305',
    source: "002 (checks and writes that do not bind to what they observed); a compare-and-set split in two",
    rows: [],
    raceKinds: ['AdvanceRoleEpoch'],
    scenarios: [],
    caughtBy: ['race'],
    patches: { commands: roleEpochReadThenWrite },
  },
  'reserve-count-then-insert': {
    bug: 'Reserve sums the units in use and inserts the reservation without locking the scope, so two reservations both take the same free units',
    rule: '000 §72, §93–§97',
    source: 'the count-then-insert admission race of capacity-count-then-insert, in the reservation path',
    rows: [],
    raceKinds: ['Reserve'],
    scenarios: [],
    caughtBy: ['race'],
    patches: { commands: reserveCountThenInsert },
  },
  'release-function-unlocked': {
    bug: "testbed_release checks the lease without locking the scope's counter row and deletes it in a later statement of the same function, so a release racing its lease's expiry deletes the lease of the holder that acquired the scope meanwhile",
    rule: '000 §25–§30, §78, §280',
    source: '002 (key-only force release destroying a newer holder\'s lease); a check and a write inside one server-side function',
    rows: [],
    raceKinds: ['Release', 'Acquire'],
    scenarios: [],
    caughtBy: ['race'],
    strategy: 'random-functions',
    patches: { commands: {}, functions: unlockedFunction('Release') },
  },
  'mutate-function-unlocked': {
    bug: "testbed_mutate reads the lease and the aggregate's version without locking the scope's counter row and writes in later statements of the same function, so two writes expecting the same version are both accepted",
    rule: '000 §25–§27, §66',
    source: '002 (writes that do not bind to the lease and version observed); a check and a write inside one server-side function',
    rows: [],
    raceKinds: ['Mutate'],
    scenarios: [],
    caughtBy: ['race'],
    strategy: 'random-functions',
    patches: { commands: {}, functions: unlockedFunction('Mutate') },
  },
  'renew-function-unlocked': {
    bug: "testbed_renew checks the lease without locking the scope's counter row and extends it in a later statement of the same function, so a renewal racing its lease's expiry extends the lease of the holder that acquired the scope meanwhile",
    rule: '000 §31–§33, §78, §282',
    source: '000 §282 (renewal race test); a check and a write inside one server-side function',
    rows: [],
    raceKinds: ['Renew', 'Acquire'],
    scenarios: [],
    caughtBy: ['race'],
    strategy: 'random-functions',
    patches: { commands: {}, functions: unlockedFunction('Renew') },
  },
});

export const POSTGRES_MUTANT_PREFIX = 'postgres-mutant:';

/** The mutant a `postgres-mutant:<name>` spec names, or undefined. */
export function findPostgresMutant(spec: string): SqlMutant | undefined {
  return findByName(POSTGRES_MUTANTS, POSTGRES_MUTANT_PREFIX, spec);
}
