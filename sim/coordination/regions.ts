// Regions of a multi-region deployment (seed 001 §187–§189: avoid a Raft that spans high-latency
// regions; keep one coordination quorum region, with regional workers and PostgreSQL's own
// multi-region architecture beyond it). With `coordination.regions` above 1, the bootstrap voters
// are all in region 1 and the other daemons are spread over the other regions; the broken placement
// (`votersInOneRegion` off) spreads the voters over the regions too. The `wan-partition` fault
// cuts every link between daemons of different regions, and its end restores them.

import type { Sim } from '../engine.ts';

/** Each controller's region (1-based), by name. */
export function regionsOf(sim: Sim, voters: number, regions: number): ReadonlyMap<string, number> {
  const placed = new Map<string, number>();
  sim.controllers.forEach((node, i) => {
    const voter = i < voters;
    const spread = (i % regions) + 1;
    const rest = regions === 1 ? 1 : ((i - voters) % (regions - 1)) + 2;
    placed.set(node.name, voter ? (sim.policy.votersInOneRegion ? 1 : spread) : rest);
  });
  return placed;
}

/**
 * Cuts the links between regions for `durationMs`: returns the pairs it cut (both ways), for the
 * heal. The record names each region's daemons and the voters of the configuration in force.
 */
export function cutRegions(sim: Sim, placed: ReadonlyMap<string, number>, voters: ReadonlyArray<string>, durationMs: number): ReadonlyArray<readonly [string, string]> {
  const names = [...placed.keys()];
  const pairs: Array<readonly [string, string]> = [];
  for (const a of names) for (const b of names) if (a < b && placed.get(a) !== placed.get(b)) pairs.push([a, b]);
  if (pairs.length === 0) return pairs;
  for (const [a, b] of pairs) {
    sim.network.block(a, b);
    sim.network.block(b, a);
  }
  const regions = [...new Set(placed.values())].sort().map((region) => names.filter((name) => placed.get(name) === region));
  sim.fault('wan-partition', { regions, voters: [...voters].sort(), durationMs });
  return pairs;
}

/** Restores the links a cut took. */
export function healRegions(sim: Sim, pairs: ReadonlyArray<readonly [string, string]>): void {
  for (const [a, b] of pairs) {
    sim.network.unblock(a, b);
    sim.network.unblock(b, a);
  }
  sim.fault('wan-heal', {});
}
