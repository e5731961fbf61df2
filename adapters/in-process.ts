// The store of this layer that lives in the testbed's own process and can be built from its name
// alone: the memory store. The built-in mutants, which are built the same way, are resolved a
// layer up (mutants/in-process.ts `inProcessAdapter`, which answers for `memory` too). Anything
// built from a name can be rebuilt in a worker thread, and a run on it can be shrunk by re-running it.

import createMemoryStore from './memory.ts';
import type { StoreFactory } from './port.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';

export interface InProcessAdapter {
  readonly name: string;
  readonly store: { readonly name: string; readonly factory: StoreFactory; readonly typedAnswers: true };
  /** The controller policy a policy mutant flips (absent: the correct policy). */
  readonly policy?: Partial<ControllerPolicy>;
}

/** The memory store for `memory`; null for anything else. */
export function memoryAdapter(spec: string): InProcessAdapter | null {
  return spec === 'memory' ? { name: 'memory', store: { name: 'memory', factory: createMemoryStore, typedAnswers: true } } : null;
}
