// Builds the run's history (model/history.ts shapes) in index order and hashes it: the trace hash
// is the SHA-256 (hex) of a canonical serialization, so equal runs give equal hashes anywhere.

import { createHash } from 'node:crypto';
import type { FaultKind, HistoryEvent, OpType } from '../model/history.ts';

export class HistoryRecorder {
  readonly events: HistoryEvent[] = [];
  completedOps = 0;

  op(time: number, process: string, type: OpType, f: string, value: unknown): void {
    if (type !== 'invoke') this.completedOps++;
    this.events.push({ index: this.events.length, time, process, type, f, value });
  }

  fault(time: number, f: FaultKind, value: Readonly<Record<string, unknown>>): void {
    this.events.push({ index: this.events.length, time, process: 'nemesis', type: 'fault', f, value });
  }

  truth(time: number, process: 'provider' | 'resource', f: 'effect-applied' | 'mutation-accepted', value: Readonly<Record<string, unknown>>): void {
    this.events.push({ index: this.events.length, time, process, type: 'truth', f, value });
  }
}

/**
 * The trace hash: SHA-256 (hex) of the history serialized as JSON. The serialization is canonical
 * because every value in a history is built with a fixed field order — by the simulator, and by
 * the store's outcome constructors — so the same run gives the same bytes in any process. (A
 * sorted-key serializer gave the same guarantee at ten times the cost on the hot path.)
 */
export function traceHash(events: ReadonlyArray<HistoryEvent>): string {
  const hash = createHash('sha256');
  const chunk = 512;
  for (let i = 0; i < events.length; i += chunk) hash.update(JSON.stringify(events.slice(i, i + chunk)));
  return hash.digest('hex');
}
