// A built-in mutant (`mutant:<name>`): a store wrapper, or the memory store under a broken
// controller policy, built from its name alone, so a run on it replays and shrinks.
import { inProcessAdapter } from '../../mutants/in-process.ts';
import { MUTANTS } from '../../mutants/index.ts';
import { UsageError } from '../../adapters/errors.ts';
import type { Backend } from '../backend.ts';

export const mutant: Backend = {
  kind: 'mutant',
  syntax: 'mutant:<name>',
  matches: (spec) => spec.startsWith('mutant:'),
  replays: 'always',
  interleavable: false,
  realFaults: false,
  databaseClock: false,
  gateStage: null,
  open: async (spec) => {
    const adapter = inProcessAdapter(spec);
    if (adapter === null) throw new UsageError(`unknown mutant '${spec.slice('mutant:'.length)}'; known: ${MUTANTS.map((m) => m.name).join(', ')}`);
    return { ...adapter, deterministic: true, close: async () => {} };
  },
};
