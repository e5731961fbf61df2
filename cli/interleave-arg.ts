// `--interleave [strategy]` on run and sweep: controlled interleaving of real transactions
// (adapters/interleaving.ts), for the PostgreSQL store and its variants. The strategy is random (the
// default) or pct; the choice is part of the replay line and of the failure file.

import { INTERLEAVE_STRATEGIES, type InterleaveStrategy } from '../adapters/interleaving.ts';
import type { ResolvedAdapter } from './adapters.ts';

/**
 * The random walk finds the check-then-act races of small batches (two to seven calls) more
 * often than PCT: on sql-contention seeds 1..10 it caught each SQL race mutant on 5–7 seeds, PCT
 * on 1–6. PCT's guarantee is per bug depth and pays off on longer schedules.
 */
const DEFAULT_STRATEGY: InterleaveStrategy = 'random';
import { UsageError } from './errors.ts';

/** The strategy an `--interleave` option value names (undefined: not interleaved). */
export function interleaveStrategy(value: string | boolean | undefined, adapter: string, faults: 'sim' | 'real'): InterleaveStrategy | undefined {
  if (value === undefined || value === false) return undefined;
  const strategy = value === true ? DEFAULT_STRATEGY : value;
  if (!(INTERLEAVE_STRATEGIES as ReadonlyArray<string>).includes(strategy)) throw new UsageError(`bad --interleave "${strategy}": expected ${INTERLEAVE_STRATEGIES.join(' or ')}`);
  if (faults === 'real') throw new UsageError('--interleave runs on simulated faults: leave out --faults real');
  if (adapter !== 'postgres' && !adapter.startsWith('postgres-mutant:')) throw new UsageError(`--interleave needs a PostgreSQL store (postgres or postgres-mutant:<name>), not ${adapter}`);
  return strategy as InterleaveStrategy;
}

/** The adapter with every run interleaved by `strategy`. */
export function interleaved(adapter: ResolvedAdapter, strategy: InterleaveStrategy | undefined): ResolvedAdapter {
  if (strategy === undefined) return adapter;
  if (adapter.interleaving === undefined) throw new UsageError(`--interleave needs a PostgreSQL store, not ${adapter.name}`);
  return { ...adapter, interleave: adapter.interleaving(strategy) };
}
