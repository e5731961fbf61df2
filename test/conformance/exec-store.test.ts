// The conformance suite against a store in another language: the Python lease store of
// examples/exec-store, run as `--adapter exec:<command>` runs it (adapters/exec-store.ts). The
// commands it declares are checked; every test that needs another is skipped, naming it.

import { describeStoreConformance } from '../../conformance/suite.ts';
import { createExecStore } from '../../adapters/exec-store.ts';

describeStoreConformance('exec: Python lease store', (time) => createExecStore({ time, command: 'python3 examples/exec-store/lease_store.py' }));

// The same store with renewals that confirm without extending, declared in its init_ok
// (capabilities.renewal "confirms"): the renewal test expects the grant's expiry back.
describeStoreConformance('exec: Python lease store, renewals that only confirm', (time) =>
  createExecStore({ time, command: 'python3 examples/exec-store/lease_store.py --confirming-renewals' }),
);
