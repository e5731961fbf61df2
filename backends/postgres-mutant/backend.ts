// One of the PostgreSQL store's SQL race mutants (`postgres-mutant:<name>`, mutants/sql/).
import { UsageError } from '../../adapters/errors.ts';
import type { Backend } from '../backend.ts';
import { openPostgres } from '../postgres/open.ts';

const PREFIX = 'postgres-mutant:';

export const postgresMutant: Backend = {
  kind: 'postgres-mutant',
  syntax: `${PREFIX}<name>`,
  matches: (spec) => spec.startsWith(PREFIX),
  replays: 'interleaved',
  interleavable: true,
  realFaults: false,
  databaseClock: true,
  gateStage: null,
  open: async (spec, interleave) => {
    const { findPostgresMutant, mutantStoreOptions, POSTGRES_MUTANTS } = await import('../../mutants/sql/index.ts');
    const mutant = findPostgresMutant(spec);
    if (mutant === undefined) throw new UsageError(`unknown PostgreSQL mutant '${spec.slice(PREFIX.length)}'; known: ${POSTGRES_MUTANTS.map((m) => m.name).join(', ')}`);
    return openPostgres(spec, mutantStoreOptions(mutant), interleave);
  },
};
