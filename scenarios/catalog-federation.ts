// The built-in scenarios of federation site authority (seed 000 §163–§169, §266–§268, §296), as
// plain data like catalog.ts, which lists them last.

import { SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

export const FEDERATION_SCENARIOS = [
  // Six controllers in three sites; tenants t1 and t2 are domains whose authority starts at sites
  // 1 and 2. Site 1 is cut off the WAN and, while it keeps running, t1 fails over to site 2: site
  // 1's controllers go on under epoch 1 until the store fences them. Later site 2, holding both
  // domains, is cut off (its local concurrency goes on: an air gap) and t2 fails over to site 3
  // meanwhile. More cuts and failovers come at random, with pauses, crashes and partitions.
  leaseScenario({
    name: 'federation-site-failover',
    title: 'Federated sites: after a failover the old site, cut off and still running, has its leases and writes refused by authority epoch',
    sources: ['000 §163–169', '000 §266–268', '000 §296', '000 §315'],
    workload: { controllers: 6, tenants: 2, scopes: 2, mix: { 'env-deploy': 2, 'infra-apply': 1, 'alias-publish': 1 }, horizonMs: 12_000, leaseTtlMs: 1_500 },
    profile: { nemesisIntervalMs: 500, pauseProbabilityPct: 10, pauseMsMax: 1_500, crashProbabilityPct: 5, restartDelayMs: 300, partitionProbabilityPct: 5, partitionMsMax: 1_000 },
    scripted: [
      { f: 'site-cut', at: 2_000, site: 1, durationMs: 4_000 },
      { f: 'site-failover', at: 2_500, domain: 't1' },
      { f: 'site-cut', at: 7_000, site: 2, durationMs: 2_500 },
      { f: 'site-failover', at: 7_500, domain: 't2' },
    ],
    federation: { sites: 3, faults: { intervalMs: 1_000, siteCutPct: 10, siteCutMsMax: 2_000, siteFailoverPct: 5 } },
    invariants: [...SAFETY, 'site-authority-first'],
    operations: 60,
  }),
] satisfies ReadonlyArray<ScenarioInput>;
