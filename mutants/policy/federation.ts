// The policy mutants of federation site authority (seed 000 §163–§169, §266–§268, §296): what a
// federated site does with the authority of a domain. One entry a mutant, as in coordination.ts
// (mutants/entry.ts says how to write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const FEDERATION_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 000 §167 ("Only authority site acquires local mutation lease for that domain"), §169
  // ("Local locks do not cross authority site boundary"), §268 ("No merging of conflicting global
  // ownership if site lacked authority"), §296. A site cut off the WAN while its domain failed
  // over meets the store's Fenced answer, takes it for a glitch of the authority service, and
  // retries the lease and the write on its local lock alone: the old site's leases and writes
  // land beside the new authority site's.
  'fenced-site-falls-back-to-local-lock': {
    bug: 'a site fenced on a domain’s authority epoch retries its lease and its write without the authority guard, on its local lock alone',
    source: '000 §167–§169, §268, §296',
    rows: ['000-316-federation-authority', '000-315-federation-fences-site', '000-317-inv-site-authority-first'],
    rule: 'site-authority-first: every lease and write accepted in a federated domain carries the authority guard of the site that holds it',
    invariants: ['site-authority-first'],
    scenarios: ['federation-site-failover'],
    flips: 'fencedSiteStops',
  },
});
