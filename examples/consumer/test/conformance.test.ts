// The README's recipe "The conformance suite against your store", word for word (the testbed's
// test/docs-recipes.test.ts fails if the two differ): every command kind and the outcomes of the
// rule book, under virtual time.

import { describeStoreConformance } from 'concurrency-testbed/conformance';
import openStore from '../src/store.ts';

describeStoreConformance('my store', (time) => openStore({ time }));
