// The stores that live in the testbed's own process and can be built from their name alone: the
// memory store (adapters/in-process.ts) and the built-in mutants (a store wrapper, or the memory
// store under a broken controller policy). Anything built from a name can be rebuilt in a worker
// thread, and a run on it can be shrunk by re-running it.

import createMemoryStore from '../adapters/memory.ts';
import { memoryAdapter, type InProcessAdapter } from '../adapters/in-process.ts';
import { findMutant, mutantPolicy, mutantStoreFactory } from './index.ts';

export type { InProcessAdapter } from '../adapters/in-process.ts';

/** `memory` or `mutant:<known name>`; null for anything else (including an unknown mutant). */
export function inProcessAdapter(spec: string): InProcessAdapter | null {
  const memory = memoryAdapter(spec);
  if (memory !== null || !spec.startsWith('mutant:')) return memory;
  const mutant = findMutant(spec);
  if (mutant === undefined) return null;
  const name = `mutant:${mutant.name}`;
  const policy = mutantPolicy(mutant);
  return {
    name,
    store: { name, factory: mutantStoreFactory(mutant, createMemoryStore), typedAnswers: true },
    ...(policy === undefined ? {} : { policy }),
  };
}
