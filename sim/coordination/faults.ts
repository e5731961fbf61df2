// Coordination faults, as plan steps (seed 001 §82, §90, §97–§98, §259–§261). They name the
// leader rather than a node, because who leads at a given time is decided by the run: the
// service resolves "the leader" when the fault fires. Random ones are drawn from their own stream,
// so a scenario without coordination draws exactly what it drew before.

import type { Stream } from '../prng.ts';
import type { CoordinationFaultOptions } from '../../scenarios/coordination-options.ts';

export type CoordinationFault =
  | { readonly f: 'leader-crash'; readonly at: number; readonly downMs: number }
  | { readonly f: 'leader-pause'; readonly at: number; readonly durationMs: number }
  | { readonly f: 'leader-isolate'; readonly at: number; readonly durationMs: number }
  | { readonly f: 'quorum-split'; readonly at: number; readonly durationMs: number }
  | MembershipFault;

/** An operator's membership request (§59–§66, §230–§233); `leader` names whoever leads when it fires. */
export type MembershipFault =
  | { readonly f: 'member-add'; readonly at: number; readonly node: string }
  | { readonly f: 'member-promote'; readonly at: number; readonly node: string }
  | { readonly f: 'member-remove'; readonly at: number; readonly node: string };

/** Random coordination faults over the safety phase, one draw per knob per tick. */
export function drawCoordinationFaults(options: CoordinationFaultOptions, horizonMs: number, stream: Stream): CoordinationFault[] {
  const out: CoordinationFault[] = [];
  if (options.intervalMs <= 0) return out;
  for (let at = options.intervalMs; at < horizonMs; at += options.intervalMs) {
    if (stream.chance(options.leaderCrashPct)) out.push({ f: 'leader-crash', at, downMs: Math.max(1, options.leaderDownMs) });
    if (stream.chance(options.leaderPausePct)) out.push({ f: 'leader-pause', at, durationMs: stream.int(1, Math.max(1, options.leaderPauseMsMax)) });
    if (stream.chance(options.leaderIsolatePct)) out.push({ f: 'leader-isolate', at, durationMs: stream.int(1, Math.max(1, options.leaderIsolateMsMax)) });
    if (stream.chance(options.quorumSplitPct)) out.push({ f: 'quorum-split', at, durationMs: stream.int(1, Math.max(1, options.quorumSplitMsMax)) });
  }
  return out;
}
