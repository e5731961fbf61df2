// Which share of a gate run one shard does. A gate run is a set of independent pieces: every
// scenario over every seed (memory and PostgreSQL), one real-fault run per scenario, each mutant's
// hunt, the test suites and the PostgreSQL check. Seeds are dealt out as `sweep --shard` deals
// them (every n-th seed, starting at the i-th); the pieces that do not split by seed go round the
// shards in turn. The split is a pure function of the work and the shard: every shard of the same
// run computes the same split, so n shards together do each piece exactly once.

/** The i-th of n shards (1-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** What a whole (unsharded) gate run does; a shard file records it so a merge can refuse mixed runs. */
/** Every field of GateWork, in order: the shards of one gate run agree on each. */
export const GATE_WORK_FIELDS = ['seeds', 'pgSeeds', 'postgres', 'scenarios', 'realFaultScenarios', 'mutants'] as const satisfies ReadonlyArray<keyof GateWork>;

export interface GateWork {
  /** Seeds 1..seeds per scenario on the memory store. */
  readonly seeds: number;
  /** Seeds 1..pgSeeds per scenario on PostgreSQL (0 when PostgreSQL is off). */
  readonly pgSeeds: number;
  readonly postgres: boolean;
  /** Scenario names, in catalogue order. */
  readonly scenarios: ReadonlyArray<string>;
  /** Scenarios replayed once (seed 1) with real faults, when PostgreSQL is on. */
  readonly realFaultScenarios: ReadonlyArray<string>;
  /** Mutant names, in catalogue order. */
  readonly mutants: ReadonlyArray<string>;
}

/** One shard's share of a gate run. */
export interface ShardShare {
  readonly memorySeeds: ReadonlyArray<number>;
  readonly pgSeeds: ReadonlyArray<number>;
  readonly realFaultScenarios: ReadonlyArray<string>;
  readonly mutants: ReadonlyArray<string>;
  /** The test suites and the check of PostgreSQL against the model: one piece each, on the first shard. */
  readonly suites: boolean;
  readonly checkPostgres: boolean;
}

export const WHOLE: Shard = { index: 1, count: 1 };

/** Seeds from..to that belong to the shard: every n-th seed, starting at the i-th. */
export function shardSeeds(from: number, to: number, shard: Shard): number[] {
  const seeds: number[] = [];
  for (let seed = from + shard.index - 1; seed <= to; seed += shard.count) seeds.push(seed);
  return seeds;
}

/** The items whose position modulo n is the shard's (0-based) index. */
function roundRobin<T>(items: ReadonlyArray<T>, shard: Shard): T[] {
  return items.filter((_, i) => i % shard.count === shard.index - 1);
}

export function shareOf(work: GateWork, shard: Shard): ShardShare {
  return {
    memorySeeds: shardSeeds(1, work.seeds, shard),
    pgSeeds: work.postgres ? shardSeeds(1, work.pgSeeds, shard) : [],
    realFaultScenarios: work.postgres && work.pgSeeds > 0 ? roundRobin(work.realFaultScenarios, shard) : [],
    // Mutants go round from the last shard backwards, so the first shard, which also runs the
    // test suites, gets the fewest when they do not divide evenly.
    mutants: roundRobin([...work.mutants].reverse(), shard).reverse(),
    suites: shard.index === 1,
    checkPostgres: work.postgres && shard.index === 1,
  };
}
