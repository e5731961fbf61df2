// Gates grouped by seed section in catalogue order. The release gates (§316, §339) decide a
// release; the acceptance tests (§315, §338) are the finer checks behind them.

import type { GateResult, GateStatus } from './gate-status.ts';

interface GateGroup {
  readonly source: string;
  readonly heading: string;
  readonly gates: ReadonlyArray<GateResult>;
}

const HEADINGS: Readonly<Record<string, string>> = {
  '000 §316': 'Production-readiness gates, seed 000 §316 (concurrency)',
  '001 §339': 'Production-readiness gates, seed 001 §339 (HA/coordination)',
  '000 §315': 'Acceptance tests, seed 000 §315',
  '001 §338': 'Acceptance tests, seed 001 §338',
};

const RELEASE_GATE_SOURCES = new Set(['000 §316', '001 §339']);

export function gateGroups(gates: ReadonlyArray<GateResult>): GateGroup[] {
  const groups = new Map<string, GateResult[]>();
  for (const gate of gates) groups.set(gate.source, [...(groups.get(gate.source) ?? []), gate]);
  return [...groups].map(([source, list]) => ({ source, heading: HEADINGS[source] ?? source, gates: list }));
}

export interface StatusCounts {
  readonly total: number;
  readonly pass: number;
  readonly fail: number;
  readonly untested: number;
  readonly partial: number;
}

function count(gates: ReadonlyArray<GateResult>): StatusCounts {
  const by = (status: GateStatus): number => gates.filter((g) => g.status === status).length;
  return { total: gates.length, pass: by('pass'), partial: by('partial'), fail: by('fail'), untested: by('untested') };
}

/** Counts for the release gates and for the acceptance tests, kept apart. */
export function statusCounts(gates: ReadonlyArray<GateResult>): { readonly gates: StatusCounts; readonly acceptance: StatusCounts } {
  return {
    gates: count(gates.filter((g) => RELEASE_GATE_SOURCES.has(g.source))),
    acceptance: count(gates.filter((g) => !RELEASE_GATE_SOURCES.has(g.source))),
  };
}

export function countsLine(counts: StatusCounts): string {
  return `${counts.pass} pass, ${counts.partial} partial, ${counts.fail} fail, ${counts.untested} untested (of ${counts.total})`;
}
