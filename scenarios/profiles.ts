// Fault profile pieces shared by the scenario catalogues.

/** Network that is never perfect: every message takes 1–5 ms. */
export const NET = { networkDelayMsMin: 1, networkDelayMsMax: 5 } as const;
