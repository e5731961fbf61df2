// The result of one run of a scenario with one seed on one adapter: what `testbed run --json`
// prints (docs/ARCHITECTURE.md "The CLI contract") plus the history, kept for reports and replay.

import type { History } from '../model/history.ts';
import type { Violation } from '../model/verdict.ts';

/**
 * The store time a call ran at, in ms: one instant, or from–to when the store read its clock
 * while store time passed (a batch of interleaved calls, adapters/interleaving.ts).
 */
export type StoreTime = number | readonly [fromMs: number, toMs: number];

export interface RunResult {
  readonly scenario: string;
  readonly seed: number;
  readonly adapter: string;
  readonly faults: 'sim' | 'real';
  /** Hex digest of the trace; the same seed, scenario and adapter always give the same hash. */
  readonly traceHash: string;
  /** Number of history events (operations, faults and ground truth). */
  readonly events: number;
  /** Number of completed client operations. */
  readonly operations: number;
  readonly valid: true | false | 'unknown';
  /**
   * Why the run was not played: the store lacks command kinds the scenario's workload needs
   * (sim/capabilities.ts). `valid` is then 'unknown'; the run is untested, neither passed nor failed.
   */
  readonly untested?: string;
  /** Invariants left out of the verdict because they read commands the store lacks (sim/capabilities.ts). */
  readonly unjudged?: ReadonlyArray<{ readonly invariant: string; readonly lacks: ReadonlyArray<string> }>;
  /** The command kinds the store declares (`capabilities.commands`); absent when it implements them all. Coverage is measured against them. */
  readonly storeCommands?: ReadonlyArray<string>;
  /** Present when the store's renewals only confirm (`capabilities.renewal`): coverage lists what its workloads then cannot reach. */
  readonly storeRenewal?: 'confirms';
  readonly violations: ReadonlyArray<Violation>;
  /** One line that reproduces this run exactly. */
  readonly replay: string;
  /** Simulated milliseconds covered by the run. */
  readonly simulatedMs: number;
  readonly history: History;
  /**
   * When the store ran each call, by the history index of its invoke (sim/history-recorder.ts);
   * a call that never reached the store has none. Absent for a run read back from a file.
   */
  readonly storeTimes?: Readonly<Record<number, StoreTime>>;
}
