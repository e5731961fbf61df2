// A holder's handler and its refresh loop (seed 000 §157–§160; seed 002 "Why staged" 2; seed 003
// 0892821), and a holder whose session ends under it (000 §74), as plain data like catalog.ts,
// which lists them in its order. The handler works in steps
// of unfenced work; the refresh loop renews every third of the TTL, one call at a time. The RPC
// timeout is far longer than the TTL, so a renewal held in the network or cut off by a partition
// hangs past the lease's expiry without the holder being retired: only the handler's own local
// validity window stops it in time.

import { SAFETY, leaseScenario } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

export const HOLDER_SCENARIOS = [
  leaseScenario({
    name: 'stalled-refresh',
    title: 'A renewal call that hangs past the TTL does not keep the handler working: it stops when its lease\'s local window ends',
    // A handler stopped by its window releases a lease that may have passed to the next holder:
    // its Release must name its own token (002 key-only release).
    sources: ['000 §157–160', '002 stallable-refresh-call', '003 refresh-error-cancels-handler', '002 key-only-release'],
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 2, 'infra-apply': 1 }, horizonMs: 12_000, leaseTtlMs: 600, workMsMin: 400, workMsMax: 1_500, workStepMs: 50, waitPct: 100, waitTimeoutMs: 8_000, rpcTimeoutMs: 5_000 },
    profile: { holdProbabilityPct: 10, holdMsMax: 2_500, nemesisIntervalMs: 500, partitionProbabilityPct: 10, partitionMsMax: 2_500 },
    invariants: [...SAFETY, 'work-within-lease'],
  }),
  leaseScenario({
    name: 'lease-loss-after-return',
    title: 'A lease loss that lands after the handler returned does not reclassify the run: a completed run stays completed, a handler error stays an error',
    // Short leases renewed every third of their TTL over a slow network, so a renewal is often in
    // flight when a handler returns; messages held for about a TTL and paused holders make it come
    // back refused (the lease ran out, or the run's own release overtook it) only after the return.
    // A third of the handlers fail their final check, so a late loss could also hide an error.
    sources: ['003 cause-reclassified-after-return', '000 §157–159', '000 §224–225'],
    workload: { controllers: 4, scopes: 2, mix: { 'env-deploy': 2, 'infra-apply': 1 }, horizonMs: 10_000, leaseTtlMs: 300, workMsMin: 50, workMsMax: 500, waitPct: 100, waitTimeoutMs: 8_000, handlerErrorPct: 30 },
    profile: { networkDelayMsMax: 40, holdProbabilityPct: 10, holdMsMax: 300, nemesisIntervalMs: 200, pauseProbabilityPct: 15, pauseMsMax: 400 },
    operations: 60,
  }),
  leaseScenario({
    name: 'session-loss',
    title: 'Holders cut off from the database for a moment between their calls: a lease that ended with its session is never written under',
    // Short partitions between a controller and the database, mostly while its holder works and
    // makes no call: a store whose leases live with their sessions (an advisory lock) loses the
    // lease without the holder knowing, and its next write must be refused (000 §74). A store
    // whose leases live by their TTL keeps them through such a cut-off.
    sources: ['000 §74', '000 §25', '000 §281'],
    workload: { controllers: 4, scopes: 2, mix: { 'env-deploy': 1 }, horizonMs: 12_000, leaseTtlMs: 3_000, workMsMin: 200, workMsMax: 800 },
    profile: { nemesisIntervalMs: 150, partitionProbabilityPct: 60, partitionMsMax: 120 },
  }),
  leaseScenario({
    name: 'stable-holder-names',
    title: 'Controllers hold leases under their node\'s name across restarts: a call delayed from an earlier lease is told apart by its token alone',
    // Host-style holder names (workload.holderNames 'node'): a restarted node meets its own earlier
    // lease, asks for the scope again under the same name, and calls held in the network from its
    // previous incarnation reach the store under that name too. Only the token separates them:
    // a store that compares holders where it should compare tokens is caught here. A provider
    // whose effects are idempotent, so that a held effect request is not a blind retry.
    sources: ['001 §12–13', '000 §25', '000 §281'],
    workload: { controllers: 4, scopes: 2, mix: { 'alias-publish': 1 }, horizonMs: 12_000, leaseTtlMs: 400, workMsMin: 300, workMsMax: 1_000, holderNames: 'node', rpcTimeoutMs: 5_000 },
    profile: { networkDelayMsMax: 20, nemesisIntervalMs: 200, holdProbabilityPct: 40, holdMsMax: 2_500, crashProbabilityPct: 15, restartDelayMs: 50, pauseProbabilityPct: 10, pauseMsMax: 800 },
    invariants: [...SAFETY, 'no-blind-retry'],
    operations: 60,
  }),
] satisfies ReadonlyArray<ScenarioInput>;
