// The stores that live in the testbed's own process and can be built from their name alone: the
// memory store and the built-in mutants (a store wrapper, or the memory store under a broken
// controller policy). Anything built from a name can be rebuilt in a worker thread, and a run on
// it can be shrunk by re-running it.

import createMemoryStore from './memory.ts';
import { findMutant, mutantStoreFactory } from './mutants/index.ts';
import type { StoreFactory } from './port.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';

export interface InProcessAdapter {
  readonly name: string;
  readonly store: { readonly name: string; readonly factory: StoreFactory; readonly typedAnswers: true };
  /** The controller policy a policy mutant flips (absent: the correct policy). */
  readonly policy?: Partial<ControllerPolicy>;
}

/** `memory` or `mutant:<known name>`; null for anything else (including an unknown mutant). */
export function inProcessAdapter(spec: string): InProcessAdapter | null {
  if (spec === 'memory') return { name: 'memory', store: { name: 'memory', factory: createMemoryStore, typedAnswers: true } };
  if (!spec.startsWith('mutant:')) return null;
  const mutant = findMutant(spec);
  if (mutant === undefined) return null;
  const name = `mutant:${mutant.name}`;
  return {
    name,
    store: { name, factory: mutantStoreFactory(mutant, createMemoryStore), typedAnswers: true },
    ...(mutant.policy === undefined ? {} : { policy: mutant.policy }),
  };
}
