// Notes shared by gate rows that nothing in the testbed can prove.

/** What the federation rows rest on, and what of a federation the testbed leaves out. */
export const FEDERATION_SIMULATED =
  'Simulated: controllers in sites, one authority site per domain under an authority epoch (a role epoch the store fences on every Acquire and Mutate), WAN cuts of a site and authority failovers. ' +
  'Not simulated: a database per site and the replication or reconnect merge between them (one store stands for where the sites\' accepted ownership lands), the federation\'s own agreement on who holds a domain (the testbed decides each failover), an external provider that checks authority epochs (it sees fencing tokens only), and renewals under a stale authority (Renew carries no guard: an old site\'s lease lives until it lapses or is released, while its leases and writes are refused).';
export const OUTSIDE = 'A property of the deployed product, outside this testbed.';
/** Why the rows about the product's own deployment cannot be tested by any run here. */
export const DOGFOOD = OUTSIDE + ' Whether the product runs its own production on these primitives is a fact about how it is built and deployed; a run of the testbed observes a store and a simulated cluster, never the product.';
