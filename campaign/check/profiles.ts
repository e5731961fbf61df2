// The check's profiles: how big a world it draws commands over and how long its sequences are.
// The default profile is the fast first stage: a small world whose names collide at every step,
// sequences of at most 50 steps. The long profile is for bugs that need many operations or many
// distinct names before they show (a table that drops entries past a bound, a counter that
// overflows): tens of scopes, holders, ids and keys, and sequences of hundreds of steps, over
// fewer sequences so that it still ends in seconds.

import { SMALL_WORLD, worldScope, type World } from './world.ts';

export type CheckProfile = 'default' | 'long';
export const CHECK_PROFILES: ReadonlyArray<CheckProfile> = ['default', 'long'];

export interface ProfileSettings {
  readonly world: World;
  /** Longest sequence of steps. */
  readonly maxSteps: number;
  /** Sequences to try. */
  readonly runs: number;
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

const LONG_TENANTS = ['acme', 'globex', 'initech', 'umbrella'];

/** Thirty-two lease scopes over four tenants (the same eight names under each: tenant isolation, 000 §245). */
const LONG_SCOPES = LONG_TENANTS.flatMap((tenant) => names('env-', 8).map((name) => worldScope(tenant, 'DeploymentEnvironment', name)));

export const LONG_WORLD: World = {
  leaseScopes: LONG_SCOPES,
  capacityScope: SMALL_WORLD.capacityScope,
  holders: names('H', 16),
  ids: names('', 32),
  tenants: LONG_TENANTS,
  subjects: names('s', 8),
  keys: names('k', 8),
  aggregates: names('agg-', 8),
};

export const PROFILES: Readonly<Record<CheckProfile, ProfileSettings>> = {
  default: { world: SMALL_WORLD, maxSteps: 50, runs: 5_000 },
  long: { world: LONG_WORLD, maxSteps: 500, runs: 500 },
};

/** Whether `text` names a profile. */
export function isCheckProfile(text: string): text is CheckProfile {
  return (CHECK_PROFILES as ReadonlyArray<string>).includes(text);
}
