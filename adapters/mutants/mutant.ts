// A mutant (docs/ARCHITECTURE.md "Mutants"): a deliberately broken variant of the store or of
// the controller, with exactly one documented bug drawn from a real failure. The testbed proves
// its own sensitivity by catching every one of them within a seed budget.

import type { StoreFactory } from '../port.ts';
import type { ControllerPolicy } from '../../model/controller-policy.ts';

export interface Mutant {
  /** kebab-case, stable; the CLI selects it with `--adapter mutant:<name>`. */
  readonly name: string;
  /** The one rule it breaks, in one sentence. */
  readonly bug: string;
  /** The real failure it comes from: a seed section or a seed 002/003 commit. */
  readonly source: string;
  /** The rule it breaks, as model/SEMANTICS.md or a checker names it (for example `Leases: Renew step 2`). */
  readonly rule?: string;
  /**
   * The history checkers that must catch it (the mutant hunt runs without the differential, so
   * these, not an outcome comparison, are what it proves).
   */
  readonly invariants?: ReadonlyArray<string>;
  /** Scenarios that must catch it, tried in this order. */
  readonly scenarios: ReadonlyArray<string>;
  /** Store-level bug: given the correct store, returns the broken one. */
  readonly store?: (base: StoreFactory) => StoreFactory;
  /** Controller-level bug: the policy flags that switch one mitigation off. */
  readonly policy?: Partial<ControllerPolicy>;
}

/** The store a mutant runs on: `base` broken by the mutant's store-level bug, or `base` itself. */
export function mutantStoreFactory(mutant: Mutant, base: StoreFactory): StoreFactory {
  return mutant.store === undefined ? base : mutant.store(base);
}
