// The store-port conformance suite (model/SEMANTICS.md) against every store: the memory store,
// PostgreSQL on an embedded server, and a user's store named by TESTBED_ADAPTER (a module path or
// exec:<command>; docs/CLI.md), when it is set.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from 'vitest';
import { createExecStore } from '../../adapters/exec-store.ts';
import { createMemoryStore } from '../../adapters/memory.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import { usePostgres } from '../postgres/fixture.ts';
import { describeStoreConformance } from '../../conformance/suite.ts';

describeStoreConformance('memory', (time) => createMemoryStore({ time }));

describe('postgres (embedded)', () => {
  const pg = usePostgres();
  describeStoreConformance('postgres', (time) => pg.store({ time, poolSize: 2 }));
});

const userModule = process.env.TESTBED_ADAPTER;
if (userModule?.startsWith('exec:')) {
  // A store in another language (adapters/exec-store.ts), as `--adapter exec:<command>` runs it.
  const command = userModule.slice('exec:'.length);
  describeStoreConformance(userModule, (time) => createExecStore({ time, command }));
} else if (userModule) {
  describeStoreConformance(`module ${userModule}`, async (time) => {
    const loaded = (await import(pathToFileURL(path.resolve(userModule)).href)) as { default: StoreFactory };
    return loaded.default({ time });
  });
}
