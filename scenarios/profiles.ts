// Fault profile pieces shared by the scenario catalogues.

/** Network that is never perfect: every message takes 1–5 ms. */
export const NET = { networkDelayMsMin: 1, networkDelayMsMax: 5 } as const;

/** The safety invariants every lease scenario checks. */
export const SAFETY = ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'release-after-reconcile', 'no-phantom-lease', 'no-lost-update'] as const;

/** The three deploy workloads in the proportions of a typical day. */
export const DEPLOYS = { 'env-deploy': 4, 'infra-apply': 2, 'alias-publish': 1 } as const;
