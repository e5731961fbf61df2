// The command-level check against a built-in store mutant: does it diverge from the model, how
// fast, and in how few steps. Policy mutants (a broken controller over a correct store) are out
// of its reach by construction: it drives the store directly. A mutant the default profile does
// not catch is checked again in the long profile (profiles.ts), whose bugs need many scopes,
// holders, keys or operations; its replay line then names the profile.

import { inProcessAdapter } from '../../mutants/in-process.ts';
import type { Mutant } from '../../mutants/index.ts';
import { checkStore } from './check-store.ts';
import type { CheckProfile } from './profiles.ts';

export interface StageCatch {
  readonly caught: boolean;
  /** Milliseconds to the first divergent sequence, before shrinking. */
  readonly firstFailureMs: number | null;
  /** Steps of the shrunk counterexample. */
  readonly steps: number | null;
  readonly runs: number;
  readonly replay: string;
  /** The profile that caught it, or the last one tried. */
  readonly profile: CheckProfile;
}

export const MUTANT_CHECK_RUNS = 5_000;
export const MUTANT_CHECK_SEED = 1;

/** The check stage on `mutant`, or null when the mutant's bug is not in the store: the default profile, then the long one. */
export async function checkMutant(mutant: Mutant, runs = MUTANT_CHECK_RUNS, seed = MUTANT_CHECK_SEED): Promise<StageCatch | null> {
  if (mutant.wraps === undefined) return null;
  const adapter = inProcessAdapter(`mutant:${mutant.name}`);
  if (adapter === null) throw new Error(`mutant ${mutant.name} is not an in-process adapter`);
  let last: StageCatch | null = null;
  for (const profile of ['default', 'long'] as const) {
    // The long profile runs its own number of sequences: each is ten times as long.
    const result = await checkStore({ factory: adapter.store.factory, seed, profile, ...(profile === 'default' ? { runs } : {}) });
    const base = `npx testbed check --adapter ${adapter.name}${profile === 'default' ? '' : ` --profile ${profile}`} --seed ${seed}`;
    if (result.verdict !== 'fail') {
      last = { caught: false, firstFailureMs: null, steps: null, runs: result.runs, replay: base, profile };
      continue;
    }
    const replay = `${base} --path ${result.path}`;
    return { caught: true, firstFailureMs: Math.round(result.firstFailureMs), steps: result.steps.length, runs: result.runs, replay, profile };
  }
  return last;
}
