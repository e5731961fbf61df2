// `--interleave [strategy]` on run and sweep: controlled interleaving of real transactions
// (adapters/interleaving.ts), for the PostgreSQL store, its variants, and store modules that
// keep their data where the testbed tells them (`StoreOptions.connectionString`). The strategy is random (the
// default) or pct; the choice is part of the replay line and of the failure file.

import { INTERLEAVE_STRATEGIES, type InterleaveStrategy } from '../adapters/interleaving.ts';
import { UsageError } from './errors.ts';

/**
 * The random walk finds the check-then-act races of small batches (two to seven calls) more
 * often than PCT: on sql-contention seeds 1..10 it caught each SQL race mutant on 5–7 seeds, PCT
 * on 1–6. PCT's guarantee is per bug depth and pays off on longer schedules.
 */
const DEFAULT_STRATEGY: InterleaveStrategy = 'random';

/**
 * The strategy `--interleave` names, or `free` for `--concurrency free` (undefined: neither, the
 * lockstep default).
 */
export function interleaveStrategy(value: string | boolean | undefined, faults: 'sim' | 'real', concurrency?: string): InterleaveStrategy | undefined {
  if (concurrency !== undefined && concurrency !== 'lockstep' && concurrency !== 'free') throw new UsageError(`bad --concurrency "${concurrency}": expected lockstep or free`);
  if (concurrency === 'free') {
    if (value !== undefined && value !== false) throw new UsageError('--concurrency free and --interleave exclude each other: free-running calls are not held');
    if (faults === 'real') throw new UsageError('--concurrency free runs on simulated faults: leave out --faults real');
    return 'free';
  }
  if (value === undefined || value === false) return undefined;
  const strategy = value === true ? DEFAULT_STRATEGY : value;
  if (!(INTERLEAVE_STRATEGIES as ReadonlyArray<string>).includes(strategy)) throw new UsageError(`bad --interleave "${strategy}": expected ${INTERLEAVE_STRATEGIES.join(' or ')}`);
  if (faults === 'real') throw new UsageError('--interleave runs on simulated faults: leave out --faults real');
  return strategy as InterleaveStrategy;
}
