// Scenarios of seed 001 about who may speak for the cluster: node identity and mutual
// authentication between daemons (§56–§59, §214–§217), and the platform's own leader election,
// which must not become an authority (§202–§204). Abstract consensus; the shared shape is
// catalog-001.ts's.

import { coordinated } from './catalog-001.ts';
import type { ScenarioInput } from './schema.ts';

export const TRUST_SCENARIOS: ReadonlyArray<ScenarioInput> = [
  // Each kind of false credential once, at fixed times, and more at random, while leaders crash
  // and pause: every voter must refuse every impostor, and the cluster must go on scheduling.
  coordinated({
    name: 'node-impostor',
    title: 'Processes claiming a voter’s name with no, forged, another node’s or a revoked certificate are refused by every voter',
    sources: ['001 §56–59', '001 §214–217', '001 §338', '001 §339'],
    voters: 3,
    scripted: [
      { f: 'impostor', at: 1_500, credential: 'none' },
      { f: 'impostor', at: 3_000, credential: 'other-node' },
      { f: 'impostor', at: 4_500, credential: 'revoked' },
      { f: 'impostor', at: 6_000, credential: 'forged' },
    ],
    invariants: ['peers-authenticated'],
    coordination: { faults: { intervalMs: 1_000, impostorPct: 20, leaderCrashPct: 10, leaderDownMs: 500, leaderPausePct: 10, leaderPauseMsMax: 900 } },
  }),
  // The platform's leader election names a daemon that does not lead, now and then, while leaders
  // crash and pause: the daemons must take their roles from the coordination epochs alone.
  coordinated({
    name: 'platform-leader-election',
    title: 'The platform’s leader election names daemons that do not lead; roles follow the coordination epochs alone',
    sources: ['001 §202–204', '001 §338'],
    voters: 3,
    scripted: [
      { f: 'orchestrator-lease', at: 2_000, durationMs: 3_000 },
      { f: 'orchestrator-lease', at: 6_000, durationMs: 2_000 },
    ],
    coordination: { faults: { intervalMs: 1_000, orchestratorLeasePct: 20, orchestratorLeaseMsMax: 2_000, leaderCrashPct: 10, leaderDownMs: 500, leaderPausePct: 10, leaderPauseMsMax: 900 } },
  }),
];
