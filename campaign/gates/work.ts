// The whole of a gate run, before any sharding: the seeds per scenario on each store, the
// scenarios, those replayed with real faults, and the mutants hunted.

import { UsageError } from '../../adapters/errors.ts';
import { MUTANTS } from '../../mutants/index.ts';
import { listScenarios } from '../../scenarios/index.ts';
import type { GateWork } from '../shard-plan.ts';

/** The scenarios replayed against a real primary/replica pair with real faults (one seed each). */
const REAL_FAULT_SCENARIOS = ['db-failover', 'db-failover-unmitigated', 'restore', 'restore-unmitigated'];

/** What the run is asked for, as given (`--seeds`, `--pg-seeds`, `--no-postgres`). */
export interface GateWorkRequest {
  readonly seeds: string;
  readonly pgSeeds: string;
  readonly postgres: boolean;
}

function count(text: string, flag: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`bad ${flag} "${text}": expected an integer in 0..${max}`);
  return Number(text);
}

/** The whole run the request asks for; a bad count is bad input. */
export function gateWork(request: GateWorkRequest): GateWork {
  const scenarios = listScenarios().map((s) => s.name);
  return {
    seeds: count(request.seeds, '--seeds', 100_000),
    // Checked even when PostgreSQL is off: a bad value is bad input either way.
    pgSeeds: count(request.pgSeeds, '--pg-seeds', 10_000) * (request.postgres ? 1 : 0),
    postgres: request.postgres,
    scenarios,
    realFaultScenarios: REAL_FAULT_SCENARIOS.filter((name) => scenarios.includes(name)),
    mutants: MUTANTS.map((m) => m.name),
  };
}
