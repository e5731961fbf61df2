// Reads the agents' records from a history (sim/coordination/agents.ts): `agent-fleet` `{ agents,
// daemons, pollMs, reconnectMs }` first, `agent-connected` `{ agent, daemon, process, cursor }`,
// `agent-disconnected` `{ agent, daemon, process }` when an agent found its daemon gone, and
// `agent-received` `{ agent, daemon, seqs }` for the events one poll delivered.

import { assert } from '../assert.ts';
import type { FaultEvent, History } from '../history.ts';
import { asFields, faultsOf, requireNumber, requireString } from './operations.ts';

export interface AgentFleetRecord {
  /** The daemons an agent may connect to. */
  readonly daemons: ReadonlyArray<string>;
  readonly pollMs: number;
  readonly reconnectMs: number;
}

export interface AgentEvent {
  readonly event: FaultEvent;
  readonly kind: 'connected' | 'disconnected' | 'received';
  readonly agent: string;
  readonly daemon: string;
  /** The sequence numbers delivered (`received` only). */
  readonly seqs: ReadonlyArray<number>;
}

/** The fleet's settings; null when the run had no agents. */
export function agentFleet(history: History): AgentFleetRecord | null {
  const fleet = faultsOf(history, ['agent-fleet'])[0];
  if (fleet === undefined) return null;
  const daemons = asFields(fleet.value)?.['daemons'];
  assert(Array.isArray(daemons) && daemons.every((d) => typeof d === 'string'), `#${fleet.index}: agent-fleet names the daemons`);
  return { daemons: daemons as ReadonlyArray<string>, pollMs: requireNumber(fleet.value, 'pollMs', fleet.index), reconnectMs: requireNumber(fleet.value, 'reconnectMs', fleet.index) };
}

export function agentEvents(history: History): ReadonlyArray<AgentEvent> {
  return faultsOf(history, ['agent-connected', 'agent-disconnected', 'agent-received']).map((event) => {
    const seqs = event.f === 'agent-received' ? asFields(event.value)?.['seqs'] : [];
    assert(Array.isArray(seqs) && seqs.every((s) => Number.isInteger(s)), `#${event.index}: agent-received gives the delivered sequence numbers`);
    const kind = event.f === 'agent-connected' ? 'connected' : event.f === 'agent-disconnected' ? 'disconnected' : 'received';
    return { event, kind, agent: requireString(event.value, 'agent', event.index), daemon: requireString(event.value, 'daemon', event.index), seqs: seqs as ReadonlyArray<number> };
  });
}

/** Each daemon's down intervals, [from, to], from its crash and restart records (to: Infinity while it stays down). */
export function downIntervals(history: History): Map<string, Array<[number, number]>> {
  const down = new Map<string, Array<[number, number]>>();
  const since = new Map<string, number>();
  for (const event of faultsOf(history, ['crash', 'restart'])) {
    const node = requireString(event.value, 'node', event.index);
    if (event.f === 'crash') since.set(node, event.time);
    else {
      down.set(node, [...(down.get(node) ?? []), [since.get(node) ?? event.time - 1, event.time]]);
      since.delete(node);
    }
  }
  for (const [node, from] of since) down.set(node, [...(down.get(node) ?? []), [from, Infinity]]);
  return down;
}

/** Some daemon of the fleet was up throughout [from, to]. */
export function someDaemonUp(fleet: AgentFleetRecord, down: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>, from: number, to: number): boolean {
  return fleet.daemons.some((d) => (down.get(d) ?? []).every(([a, b]) => b < from || a > to));
}

/**
 * When the run ended: the liveness phase starts at the horizon and lasts its bound, to the end;
 * without one, the last record's time (nothing is recorded after the end).
 */
export function runEnd(history: History): number {
  const healed = faultsOf(history, ['liveness-phase'])[0];
  if (healed !== undefined) return healed.time + requireNumber(healed.value, 'boundMs', healed.index);
  return history.length === 0 ? 0 : history[history.length - 1]!.time;
}
