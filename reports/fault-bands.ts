// The fault bands of a lease timeline: each fault from where it happens to what ends it (a heal
// ends the partition of the same link, a resume the pause of the same node) or to its own stated
// duration, and the window of writes a failover or restore lost. Pure, like lease-timeline.ts.

import type { FaultEvent, HistoryEvent } from '../model/history.ts';
import { FAULT_RECORDS } from '../faults/records.ts';

export interface FaultBand {
  readonly kind: string;
  readonly start: number;
  /** Equal to `start` for an instantaneous fault (failover, restore, skew). */
  readonly end: number;
  readonly detail: string;
  /** The nodes or processes the fault hit (a paused controller, the ends of a partition); empty when it hit everything. */
  readonly nodes: ReadonlyArray<string>;
}

/** Faults that last until a matching fault ends them (each kind's `endedBy`, faults/). */
const FAULT_ENDS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FAULT_RECORDS).flatMap(([kind, record]) => (record.endedBy === undefined ? [] : [[kind, record.endedBy]])),
);
const ENDING_FAULTS = new Set(Object.values(FAULT_ENDS));
/** Faults that hold from where they happen to the end of the run. */
const UNTIL_END = new Set(Object.entries(FAULT_RECORDS).flatMap(([kind, record]) => (record.untilEnd === true ? [kind] : [])));

/** Which link or node a fault is about, so a heal ends the partition of the same link and a resume the pause of the same node. */
function faultTarget(event: FaultEvent): string {
  const v = event.value;
  if (event.f === 'partition' || event.f === 'heal') return v['from'] === undefined ? '' : `${String(v['from'])}->${String(v['to'])}`;
  return String(v['node'] ?? v['process'] ?? v['target'] ?? '');
}

function faultNodes(event: FaultEvent): string[] {
  const v = event.value;
  const named = event.f === 'partition' ? [v['from'], v['to']] : [v['process'], v['node']];
  return named.filter((n): n is string => typeof n === 'string');
}

/** How long a fault lasts by its own account (`durationMs`, `downMs`), when no later event ends it. */
function statedEnd(event: FaultEvent, endTime: number): number {
  const duration = event.value['durationMs'] ?? event.value['downMs'];
  return typeof duration === 'number' && !UNTIL_END.has(event.f) ? Math.min(endTime, event.time + duration) : endTime;
}

/**
 * The writes a failover or restore lost: from the replaced image's time (or the lag or age the
 * fault states) to the fault. A band of its own, so the window is on the chart, not only in a tooltip.
 */
function lostWindow(event: FaultEvent): FaultBand | null {
  const v = event.value;
  const back = typeof v['imageTime'] === 'number' ? event.time - v['imageTime'] : (v['lagMs'] ?? v['ageMs']);
  if (typeof back !== 'number' || back <= 0 || v['skipped'] === true) return null;
  const start = event.time - back;
  return { kind: 'lost-writes', start, end: event.time, detail: `writes after ${start} ms are not in the state ${event.f} put in place at ${event.time} ms`, nodes: [] };
}

export function faultBands(history: ReadonlyArray<HistoryEvent>, endTime: number): FaultBand[] {
  const bands: FaultBand[] = [];
  const open: { event: FaultEvent; target: string }[] = [];
  const band = (event: FaultEvent, end: number): FaultBand => ({ kind: event.f, start: event.time, end, detail: JSON.stringify(event.value), nodes: faultNodes(event) });
  for (const event of history) {
    if (event.type !== 'fault') continue;
    const lost = lostWindow(event);
    if (lost !== null) bands.push(lost);
    if (event.f in FAULT_ENDS) {
      open.push({ event, target: faultTarget(event) });
    } else if (ENDING_FAULTS.has(event.f)) {
      const target = faultTarget(event);
      for (let i = open.length - 1; i >= 0; i -= 1) {
        const candidate = open[i]!;
        if (FAULT_ENDS[candidate.event.f] !== event.f) continue;
        if (target !== '' && candidate.target !== '' && candidate.target !== target) continue;
        bands.push(band(candidate.event, event.time));
        open.splice(i, 1);
      }
    } else {
      const lasting = UNTIL_END.has(event.f) || typeof (event.value['durationMs'] ?? event.value['downMs']) === 'number';
      bands.push(band(event, lasting ? statedEnd(event, endTime) : event.time));
    }
  }
  for (const { event } of open) bands.push(band(event, statedEnd(event, endTime)));
  return bands.sort((a, b) => a.start - b.start);
}

