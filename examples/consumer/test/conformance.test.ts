// The testbed's store conformance suite (every command kind, the rule book's outcomes) against
// this project's store.

import { describeStoreConformance } from 'concurrency-testbed/conformance';
import { openStore } from '../src/store.ts';

describeStoreConformance('example store', (time) => openStore({ time }));
