// The memory store: the reference model's own store, in the testbed's process.
import { memoryAdapter } from '../../adapters/in-process.ts';
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
  open: async (spec) => ({ ...memoryAdapter(spec)!, deterministic: true, close: async () => {} }),
};
