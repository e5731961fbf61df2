// A store's function variants (store.ts `functions`, the SQL race mutants inside one PL/pgSQL
// function) are installed under the migrators' lock: many stores opening on one schema at once,
// as `stress` opens one per client, all come up instead of failing with "tuple concurrently updated".

import { expect, test } from 'vitest';
import { findPostgresMutant, mutantStoreOptions } from '../../mutants/sql/index.ts';
import { createPostgresStore } from '../../adapters/postgres/store.ts';
import { usePostgres } from './fixture.ts';

const pg = usePostgres();

test('thirty-two stores with a replaced function open on one schema at once, three times', async () => {
  const mutant = findPostgresMutant('postgres-mutant:renew-function-unlocked')!;
  for (let round = 0; round < 3; round++) await openAtOnce(mutant, pg.freshSchema());
}, 120_000);

async function openAtOnce(mutant: NonNullable<ReturnType<typeof findPostgresMutant>>, schema: string): Promise<void> {
  const stores = await Promise.all(Array.from({ length: 32 }, () => createPostgresStore({ ...mutantStoreOptions(mutant), time: 'database', connectionString: pg.server().connectionString, schema, poolSize: 1 })));
  try {
    const answers = await Promise.allSettled(stores.map((store) => store.execute({ kind: 'Inspect' })));
    expect(answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason))).toEqual([]);
  } finally {
    await Promise.allSettled(stores.map((store) => store.close()));
  }
}
