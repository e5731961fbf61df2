// A policy mutant (docs/ARCHITECTURE.md "Mutants"): the client protocol with one policy flag of
// model/controller-policy.ts switched away from its correct value, beside the policy it breaks.
// Store mutants, which break a store, live beside the stores (adapters/mutants/).

import type { ControllerPolicy } from '../controller-policy.ts';

/** What every mutant declares: its one bug, where it comes from, and what must catch it. */
export interface MutantDeclaration {
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
}

export interface PolicyMutant extends MutantDeclaration {
  /** The policy flags that switch one mitigation off. */
  readonly policy: Partial<ControllerPolicy>;
}
