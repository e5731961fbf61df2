// Pieces shared by the scenario catalogues: fault profiles, invariants, workloads, and the
// shape of a lease scenario.

import type { ScenarioInput } from './schema.ts';

/** Network that is never perfect: every message takes 1–5 ms. */
export const NET = { networkDelayMsMin: 1, networkDelayMsMax: 5 } as const;

/**
 * The safety invariants every lease scenario checks. `outcome-at-return` judges the outcome of
 * every handler run under a lease (sim/handler-run.ts), and `runs-do-work` that a run nothing
 * stopped did its work, so both go wherever handlers run.
 */
export const SAFETY = ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'release-after-reconcile', 'no-phantom-lease', 'no-lost-update', 'outcome-at-return', 'runs-do-work', 'history-retained'] as const;

/** The three deploy workloads in the proportions of a typical day. */
export const DEPLOYS = { 'env-deploy': 4, 'infra-apply': 2, 'alias-publish': 1 } as const;

type Faults = NonNullable<ScenarioInput['faults']>;

/**
 * What makes a lease scenario its own. Shared: every message delayed as NET says unless the
 * profile says otherwise, the SAFETY invariants unless others are named, and 40 operations that
 * the correct implementation must pass.
 */
export interface LeaseScenario extends Pick<ScenarioInput, 'name' | 'title' | 'sources' | 'workload' | 'liveness' | 'federation'> {
  /** Random faults, over the NET delays. */
  readonly profile?: Faults['profile'];
  readonly swarm?: boolean;
  readonly scripted?: Faults['scripted'];
  readonly invariants?: ScenarioInput['invariants'];
  readonly operations?: number;
}

/** The scenario, its name kept as a literal type (catalog.ts `ScenarioName`). */
export function leaseScenario<const N extends string>(s: LeaseScenario & { readonly name: N }): ScenarioInput & { readonly name: N } {
  return {
    name: s.name,
    title: s.title,
    sources: s.sources,
    workload: s.workload,
    faults: { profile: { ...NET, ...s.profile }, ...(s.swarm === undefined ? {} : { swarm: s.swarm }), ...(s.scripted === undefined ? {} : { scripted: s.scripted }) },
    invariants: s.invariants ?? [...SAFETY],
    expect: 'pass',
    operations: s.operations ?? 40,
    ...(s.liveness === undefined ? {} : { liveness: s.liveness }),
    ...(s.federation === undefined ? {} : { federation: s.federation }),
  };
}
