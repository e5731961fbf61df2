// The conformance suite against a store whose renewals confirm without extending
// (capabilities.renewal 'confirms'): the renewal test expects the grant's expiry back, every
// other test as for the reference.

import { describeStoreConformance } from '../../conformance/suite.ts';
import confirmingStore from '../sim/fixtures/confirming-store.ts';

describeStoreConformance('a lock whose renewals only confirm', (time) => confirmingStore({ time }));
