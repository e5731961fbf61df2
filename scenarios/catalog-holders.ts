// A holder's handler and its refresh loop (seed 000 §157–§160; seed 002 "Why staged" 2; seed 003
// 0892821), as plain data like catalog.ts, which lists it in its order. The handler works in steps
// of unfenced work; the refresh loop renews every third of the TTL, one call at a time. The RPC
// timeout is far longer than the TTL, so a renewal held in the network or cut off by a partition
// hangs past the lease's expiry without the holder being retired: only the handler's own local
// validity window stops it in time.

import { NET, SAFETY } from './profiles.ts';
import type { ScenarioInput } from './schema.ts';

export const HOLDER_SCENARIOS: ReadonlyArray<ScenarioInput> = [
  {
    name: 'stalled-refresh',
    title: 'A renewal call that hangs past the TTL does not keep the handler working: it stops when its lease\'s local window ends',
    // A handler stopped by its window releases a lease that may have passed to the next holder:
    // its Release must name its own token (002 key-only release).
    sources: ['000 §157–160', '002 stallable-refresh-call', '003 refresh-error-cancels-handler', '002 key-only-release'],
    workload: { controllers: 4, scopes: 1, mix: { 'env-deploy': 2, 'infra-apply': 1 }, horizonMs: 12_000, leaseTtlMs: 600, workMsMin: 400, workMsMax: 1_500, workStepMs: 50, waitPct: 100, waitTimeoutMs: 8_000, rpcTimeoutMs: 5_000 },
    faults: { profile: { ...NET, holdProbabilityPct: 10, holdMsMax: 2_500, nemesisIntervalMs: 500, partitionProbabilityPct: 10, partitionMsMax: 2_500 } },
    invariants: [...SAFETY, 'work-within-lease'],
    expect: 'pass',
    operations: 40,
  },
];
