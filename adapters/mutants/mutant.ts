// A mutant (docs/ARCHITECTURE.md "Mutants"): a deliberately broken variant of the store or of
// the controller, with exactly one documented bug drawn from a real failure. The store mutants
// are the files beside this one (declarations.ts says what each breaks and what must catch it);
// the controller's are beside its policy (model/policy-mutants/). The testbed proves its own
// sensitivity by catching every one of them within a seed budget.

import type { StoreFactory } from '../port.ts';
import type { ControllerPolicy } from '../../model/controller-policy.ts';
import type { MutantDeclaration } from '../../model/policy-mutants/policy-mutant.ts';

export interface Mutant extends MutantDeclaration {
  /** Store-level bug: given the correct store, returns the broken one. */
  readonly store?: (base: StoreFactory) => StoreFactory;
  /** Controller-level bug (model/policy-mutants/): the policy flags that switch one mitigation off. */
  readonly policy?: Partial<ControllerPolicy>;
}

/** The store a mutant runs on: `base` broken by the mutant's store-level bug, or `base` itself. */
export function mutantStoreFactory(mutant: Mutant, base: StoreFactory): StoreFactory {
  return mutant.store === undefined ? base : mutant.store(base);
}
