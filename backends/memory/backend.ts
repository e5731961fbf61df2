// The memory store: the reference model's own store, in the testbed's process.
import createMemoryStore from '../../adapters/memory.ts';
import type { Backend } from '../backend.ts';

export const memory: Backend = {
  kind: 'memory',
  syntax: 'memory',
  matches: (spec) => spec === 'memory',
  replays: 'always',
  interleavable: false,
  realFaults: false,
  databaseClock: false,
  gateStage: 'memory',
  open: async (spec) => ({
    name: spec,
    store: { name: spec, factory: createMemoryStore, typedAnswers: true },
    deterministic: true,
    close: async () => {},
  }),
};
