// A policy mutant (docs/ARCHITECTURE.md "Mutants"): the client protocol with one policy flag of
// model/controller-policy.ts switched away from its correct value, beside the policy it breaks.
// They are declared by theme, one table a file (client-protocol.ts, coordination.ts, raft.ts):
// an entry's key is the mutant's name, its fields say what it breaks and what must catch it, and
// `flips` names its one flag, under a comment that tells the bug and cites its sources.
// `policyMutants` turns a table into PolicyMutants, so that each flips exactly one flag. A table's
// order is the order of the mutation report (adapters/mutants/index.ts lists the tables in turn):
// a new mutant goes at the end of its theme's table. Store mutants, which break a store, live
// beside the stores (adapters/mutants/).
import { CORRECT_POLICY, type ControllerPolicy } from '../controller-policy.ts';

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
  /**
   * Why no workload of the simulator can reach the bug, for a store mutant that only the
   * command-level check catches (a rule no controller exercises). Such a mutant names no scenario
   * and no invariant; the hunt does not run it, and its catch is the check's.
   */
  readonly checkOnly?: string;
}

export interface PolicyMutant extends MutantDeclaration {
  /** The policy flags that switch one mitigation off. */
  readonly policy: Partial<ControllerPolicy>;
}

/** One entry of a policy-mutant table, whose key is the mutant's name. */
export interface PolicyMutantEntry extends Omit<MutantDeclaration, 'name'> {
  /** The one flag it switches away from its correct value (CORRECT_POLICY). */
  readonly flips: keyof ControllerPolicy;
}

/** The mutants of a table, in its order: each named by its key, with its one flag flipped. */
export function policyMutants(table: Readonly<Record<string, PolicyMutantEntry>>): ReadonlyArray<PolicyMutant> {
  return Object.entries(table).map(([name, { flips, ...declared }]) => {
    const policy: Partial<ControllerPolicy> = { [flips]: !CORRECT_POLICY[flips] };
    return { name, ...declared, policy };
  });
}
