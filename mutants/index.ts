// The mutant catalogue (docs/ARCHITECTURE.md "Mutants"): one bug each, drawn from seeds 000 and
// 001 and from the real races of seeds 002 and 003, declared in one shape (entry.ts). Each names
// the rule it breaks, the gate rows it credits and the invariants that must catch it: together
// they audit every history checker. MUTANTS are those the simulator runs, store mutants first and
// then the policy mutants theme by theme; the order is the order of the mutation report. The SQL
// race mutants (sql/index.ts) need a PostgreSQL server and real concurrency; their module reaches
// the PostgreSQL client, so whoever runs them imports it (nothing here does: a sweep worker loads
// this catalogue without the client).

import { findByName, type Mutant } from './entry.ts';
import { CLIENT_PROTOCOL_MUTANTS } from './policy/client-protocol.ts';
import { COORDINATION_MUTANTS } from './policy/coordination.ts';
import { FEDERATION_MUTANTS } from './policy/federation.ts';
import { RAFT_MUTANTS } from './policy/raft.ts';
import { RUN_WORK_MUTANTS } from './policy/run-work.ts';
import { TRUST_MUTANTS } from './policy/trust.ts';
import { STORE_MUTANTS } from './store/index.ts';

export { mutantPolicy, mutantStoreFactory, type GateRowId, type Mutant, type MutantEntry, type PolicyMutant, type SqlMutant, type StoreMutant } from './entry.ts';

export const MUTANTS: ReadonlyArray<Mutant> = Object.freeze([
  ...STORE_MUTANTS,
  // Controller-level: each flips one policy flag, declared by theme in policy/.
  ...CLIENT_PROTOCOL_MUTANTS,
  ...COORDINATION_MUTANTS,
  ...RAFT_MUTANTS,
  ...TRUST_MUTANTS,
  ...FEDERATION_MUTANTS,
  ...RUN_WORK_MUTANTS,
]);

/** The mutant named `name` (with or without the `mutant:` adapter prefix), or undefined. */
export function findMutant(name: string): Mutant | undefined {
  return findByName(MUTANTS, 'mutant:', name);
}
