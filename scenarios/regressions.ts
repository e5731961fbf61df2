// The corpus of pinned regression seeds (docs/ARCHITECTURE.md "Layers"). Each entry is one (scenario, seed)
// worth keeping forever: the seed on which a mutant is first caught, a seed on which a demonstration
// shows its violation, or a seed that pins the behaviour of a whole workload. For each entry:
//   - the correct implementation gives exactly `traceHash` on the memory store, in any process on
//     any machine (docs/ARCHITECTURE.md "Time and determinism"), and passes, or, for an `-unmitigated`
//     scenario, shows its violation;
//   - the mutant named in `catches`, if any, is caught on this very seed by that invariant.
// A deliberate change of the simulator's behaviour changes trace hashes: the test says which
// entries moved, and `npx testbed run --scenario <s> --seed <n> --json` prints the new hash.

export interface Regression {
  readonly scenario: string;
  readonly seed: number;
  /** What the seed shows, with the sections it proves. */
  readonly shows: string;
  /** The full trace hash of the correct implementation on the memory store. */
  readonly traceHash: string;
  readonly catches?: { readonly mutant: string; readonly invariant: string };
}

export const REGRESSIONS: ReadonlyArray<Regression> = Object.freeze([
  {
    scenario: 'paused-holder-expiry',
    seed: 2,
    shows: "a paused holder's write after expiry is rejected at the store by its token (000 §25–§30, §281)",
    traceHash: 'c399ea4e75373cf405404a998ca58b8711c460b7e812871559668f08cff29e03',
    catches: { mutant: 'no-fencing-check', invariant: 'one-owner-per-epoch' },
  },
  {
    scenario: 'stale-holder',
    seed: 1,
    shows: 'exclusivity needs a durable lease with a token, not a session lock (000 §24, §72–§74, §280)',
    traceHash: '305e4f28e79f0d31fef168f65b718cdad72a75b11e8f923a4ba79fc44f0d8f7b',
    catches: { mutant: 'advisory-lock-only', invariant: 'one-owner-per-epoch' },
  },
  {
    scenario: 'clock-skew',
    seed: 1,
    shows: 'expiry is decided by the store clock, never a skewed client clock (000 §79–§82)',
    traceHash: 'b66cef1b6449d27432220ba69e113b2082e373fcff39e53671070270076b9e58',
    catches: { mutant: 'client-clock-expiry', invariant: 'lease-exclusive' },
  },
  {
    scenario: 'paused-holder-expiry',
    seed: 1,
    shows: 'a renewal must name the token it renews (000 §33–§34, §160, §282)',
    traceHash: 'b1aa8167108d39fa5de79003174476b57b7945bbd6c675a9f7869a323c1251f5',
    catches: { mutant: 'renewal-without-epoch-check', invariant: 'lease-exclusive' },
  },
  {
    scenario: 'renewal-failure-stops-holder',
    seed: 15,
    shows: 'a holder whose renewal failed starts no new side effect (003 commit 0892821; 000 §157–§160)',
    traceHash: 'de39d1b64d9a346ee02a807d8f3d885c16907c961a0f156ba77e6632ae9310ef',
    catches: { mutant: 'holder-not-stopped-on-renewal-failure', invariant: 'one-owner-per-epoch' },
  },
  {
    scenario: 'force-release-stalled-holders',
    seed: 4,
    shows: 'force release needs the exact scope, the observed epoch and the observed expiry (002 PR #53, 022d1f8; 000 §200–§204, §290)',
    traceHash: 'fae3d8019fccf00f80cc2046067fe2ef1ad6b898590aa68234015b11c6d89edb',
    catches: { mutant: 'key-only-force-release', invariant: 'force-release-audited' },
  },
  {
    scenario: 'db-failover',
    seed: 1,
    shows: 'fencing tokens survive a failover to a lagging replica (000 §271–§276, §297)',
    traceHash: '1b6971e54408d24f2e1f43d593f983910c697e99cbd5d7e4666e470613a9d931',
    catches: { mutant: 'epoch-reset-after-restore', invariant: 'one-owner-per-epoch' },
  },
  {
    scenario: 'semaphore-capacity',
    seed: 1,
    shows: 'permits never exceed the capacity (000 §93–§96, §207, §293)',
    traceHash: '16fa2b1c3b75394525fae9862433b4ca4b3db88ba09ef3c2e870c3d68d5df7ca',
    catches: { mutant: 'semaphore-off-by-one', invariant: 'capacity' },
  },
  {
    scenario: 'scheduler-epoch',
    seed: 1,
    shows: 'a deposed scheduler cannot create a lease under its old epoch (001 §27–§28, §93, §263)',
    traceHash: 'c581478240f5e975c3701b0f5e5388e01c99d1cb3c70ab5ab9e0e090c29fead9',
    catches: { mutant: 'lease-without-scheduler-epoch', invariant: 'fenced-stale-leader' },
  },
  {
    scenario: 'scheduler-epoch',
    seed: 1,
    shows: 'leadership is a guard tied to an epoch, not a boolean (001 §90, §262, §296–§305)',
    traceHash: 'c581478240f5e975c3701b0f5e5388e01c99d1cb3c70ab5ab9e0e090c29fead9',
    catches: { mutant: 'boolean-leader-flag', invariant: 'fenced-stale-leader' },
  },
  {
    scenario: 'provider-timeout-unknown',
    seed: 1,
    shows: 'a timed-out effect is inspected before any retry (000 §64–§65, §191–§194, §285)',
    traceHash: '2c15df621b57535214a290ea579393c4b8b704c7f27eb0890879cbc5abf915fc',
    catches: { mutant: 'blind-retry-after-timeout', invariant: 'no-blind-retry' },
  },
  {
    scenario: 'provider-timeout-unknown',
    seed: 1,
    shows: 'an unknown outcome is not a failure (000 §52–§53, §285)',
    traceHash: '2c15df621b57535214a290ea579393c4b8b704c7f27eb0890879cbc5abf915fc',
    catches: { mutant: 'unknown-treated-as-failure', invariant: 'no-blind-retry' },
  },
  {
    scenario: 'standard-mix',
    seed: 1,
    shows: 'a cancelled run reconciles its effect before it releases (000 §115–§117, §288–§289); pins the standard 200-operation workload',
    traceHash: '94e8b83fbe76779d83995c4f94de26f6133a82b55c30853c89d03ebaf31c3f24',
    catches: { mutant: 'release-before-reconcile', invariant: 'release-after-reconcile' },
  },
  {
    scenario: 'cancel-previous-non-supersedable',
    seed: 1,
    shows: 'CancelPrevious never cancels a non-supersedable run (000 §17, §119–§121)',
    traceHash: 'cfa421fe6a15b51e9bc3e507c4783c905d67b94342a53351e0e0ccfb1487fa21',
    catches: { mutant: 'cancel-non-supersedable', invariant: 'release-after-reconcile' },
  },
  {
    scenario: 'standalone-coordination',
    seed: 3,
    shows:
      'a scheduled job confirms its lease before its effect: without it, a pause of the one node lets an expired lease drive an effect (000 §160; 001 §325–§327)',
    traceHash: '86ac26ed5a35c0ac20b3d81806c8bef45f196fe15a1862ab4938b16cfe918853',
    catches: { mutant: 'effect-without-lease-confirmation', invariant: 'lease-exclusive' },
  },
  {
    scenario: 'membership-change',
    seed: 1,
    shows: 'a leader that commits its own removal gives up its role at once; learners join first and are promoted once caught up (001 §59–§66, §215, §338)',
    traceHash: '0989aec4fd4e27687346eecac8813b8a5c3f91a9cf7ae6b00f98fd57e56fd0de',
    catches: { mutant: 'removed-leader-keeps-role', invariant: 'removed-node-no-authority' },
  },
  {
    scenario: 'db-failover-unmitigated',
    seed: 1,
    shows: 'without a recovery epoch, a failover to a lagging replica reissues tokens (000 §271–§276)',
    traceHash: '4955ee982e16a3cb7f6a5a58c336c02ffd4a0005b9273370bd42330fd617d7de',
  },
  {
    scenario: 'restore-unmitigated',
    seed: 1,
    shows: 'without a recovery epoch, a restore from an older backup honours pre-restore leases (000 §272–§276)',
    traceHash: 'a9c34a35beaa82be76308e1f2c12d62717ff555a9de611122eb2058dc2b7cc9b',
  },
  {
    scenario: 'restore',
    seed: 1,
    shows: 'after a restore no pre-restore lease is honoured and scopes stay blocked until reconciled (000 §272–§276)',
    traceHash: '9b0349fdf06464cb83dabd3bd0fb80f44be2054b83806e931d7c1672fbbd3cc9',
  },
  {
    scenario: 'swarm-mix',
    seed: 1,
    shows: 'pins the swarm workload, where the seed picks the fault mix over every workload (000 §299–§302)',
    traceHash: 'e2df81982c6f9d81f641e8a583867cf0a198a2a8dbd4e6dc9c0267ce5c48d84e',
  },
  {
    scenario: 'three-node-failover',
    seed: 1,
    shows: 'pins a three-voter failover: terms, epochs and guarded leases (001 §259, §82–§88, §67)',
    traceHash: '7a8f2e937268455bfc61323ca0251c2c1606de85b025478e7845fc7687edf8cb',
  },
  {
    scenario: 'session-loss',
    seed: 1,
    shows: 'pins holders cut off from the database between their calls, on a store told nothing of sessions (000 §74, §25, §281)',
    traceHash: '22779b249a75060e95239f3d714e3784bc1665e249c994027550624e0b84530e',
  },
  {
    scenario: 'stable-holder-names',
    seed: 1,
    shows: 'pins holders named by their node across restarts: delayed calls of an earlier incarnation under the same name (001 §12–§13, 000 §25, §281)',
    traceHash: 'd105555cc81bae7cb098b63d0369acdb1c692abc240ca02980d09efe0c32ba01',
  },
  {
    scenario: 'sql-release-race',
    seed: 1,
    shows: 'pins holders that never renew and release as their lease runs out, with waiters woken by the expiry (000 §78, §280)',
    traceHash: '3e99ceeb9a1655c76281b371954d32889bfd115a7ca56d4fa40a73437ccfdd45',
  },
  {
    scenario: 'raft-failover',
    seed: 7000188,
    shows: 'a paused Raft leader applies its own committed term-4 entry after the term-5 leader took epoch 3: judged by term, not by when it caught up, and fenced by the store (001 §83, §89, §295)',
    traceHash: '0ec66dffeeaccef3a9b060a2caed658a5568b6edd87592950e3f0a4aeccf7638',
  },
  {
    scenario: 'raft-failover',
    seed: 4294960153,
    shows: 'a paused term-1 leader takes its role with epoch 1 after epoch 2 reached the store: a stale view, not a coordination state behind the store (001 §243, §295)',
    traceHash: 'c33d7563c8953a889fd44b0b8950126916c63b1759cd34e264c7fe0b8f447436',
  },
  {
    scenario: 'raft-voter-restart',
    seed: 795,
    shows: "a job queued behind another on its scope is handed on late; the run drains past its horizon until it finishes, so jobs-complete decides instead of leaving it undecided (001 §84–§88, §283)",
    traceHash: 'd64cbcd6ef8ad5a90b9602042672699bbf0aa44ec7c057973f3b5e984cca871e',
  },
  {
    scenario: 'raft-rolling-upgrade',
    seed: 2571,
    shows: 'during a rolling upgrade a job handed on late on its scope finishes while the run drains past its horizon (001 §84–§88, §283)',
    traceHash: '6fca95f4ccabd3fa38a248795318101b3a9e5f6c908e396438ef390f474277d2',
  },
  {
    scenario: 'federation-site-failover',
    seed: 1,
    shows: 'after t1 fails over to site 2, site 1, cut off and still running, is fenced by authority epoch 2 on its next lease; a store that keeps the authority epoch per scope lets it write (000 §163–§168, §296)',
    traceHash: 'c9493710d974dcbb6fc0d7558b72fd7a1346cb97bd23371df45d1d45715a5650',
    catches: { mutant: 'authority-epoch-per-scope', invariant: 'site-authority-first' },
  },
  {
    scenario: 'federation-site-failover',
    seed: 1,
    shows: 'a site fenced on its domain stops acting there; one that falls back to its local lock takes a lease and writes beside the new authority site (000 §167–§169, §268, §296)',
    traceHash: 'c9493710d974dcbb6fc0d7558b72fd7a1346cb97bd23371df45d1d45715a5650',
    catches: { mutant: 'fenced-site-falls-back-to-local-lock', invariant: 'site-authority-first' },
  },
  {
    scenario: 'lease-loss-after-return',
    seed: 1,
    shows: 'a lease loss that lands after the handler returned reclassifies neither a completed run nor a handler error (003 cause-reclassified-after-return; 000 §157–§159)',
    traceHash: 'b5e71825b456850a8062edce43c3e09a48bb459d5a2ca4ed1fca4362b027f980',
    catches: { mutant: 'cause-read-after-drain', invariant: 'outcome-at-return' },
  },
  {
    scenario: 'db-failover',
    seed: 1,
    shows: 'the recovery Inspect after a failover still lists the ownership records of leases ended before it; a store that overwrites a scope\'s record when the scope is taken again loses them (000 §205–§206, §259–§261)',
    traceHash: '1b6971e54408d24f2e1f43d593f983910c697e99cbd5d7e4666e470613a9d931',
    catches: { mutant: 'tombstones-pruned', invariant: 'history-retained' },
  },
]);
