// The one conformance suite of the store port: every command kind and the outcome rules of
// model/SEMANTICS.md, under virtual time, against any store (memory, PostgreSQL, a user's module).
// Expected outcomes are written out from the rule book, not computed by the model, so the suite
// also checks the model itself. Users import it as `concurrency-testbed/conformance` in a vitest
// file of their own (vitest is then theirs: this module only calls describe, test and expect).

import { describe, test } from 'vitest';
import { withStore, type It, type MakeStore } from './harness.ts';
import { jobSections } from './jobs.ts';
import { leaseSections } from './leases.ts';
import { resourceSections } from './resources.ts';

export type { MakeStore } from './harness.ts';

/**
 * Declares the conformance suite (a vitest `describe` titled `store conformance: <name>`) for the
 * store that `makeStore` opens. Every test opens its own store and closes it afterwards.
 */
export function describeStoreConformance(name: string, makeStore: MakeStore): void {
  const it: It = (title, body) => test(title, withStore(makeStore, body));

  describe(`store conformance: ${name}`, () => {
    leaseSections(it);
    resourceSections(it);
    jobSections(it);
  });
}
