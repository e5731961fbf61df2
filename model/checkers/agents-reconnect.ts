// agents-reconnect (seed 001 §114 "Agents may connect to any daemon endpoint", §115 "If connected
// daemon dies: reconnect to another daemon", §274): an agent that found its daemon gone is
// connected again by its first poll after its reconnect delay at which a daemon is up. Judged
// where some daemon was up throughout that poll's window (from the delay's end to one poll period
// later): from `crash` to `restart` a daemon is down (a restart without a crash record follows a
// process that retired itself, down for 1 ms).

import type { FaultEvent, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { agentEvents, agentFleet } from './agent-records.ts';
import { faultsOf, requireString } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'agents-reconnect';

/** Each daemon's down intervals, [from, to], from its crash and restart records (to: Infinity while it stays down). */
function downIntervals(history: History): Map<string, Array<[number, number]>> {
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

export function agentsReconnect(history: History): Verdict {
  const fleet = agentFleet(history);
  if (fleet === null) return verdictOf([]);
  const down = downIntervals(history);
  const upThroughout = (from: number, to: number): boolean => fleet.daemons.some((d) => (down.get(d) ?? []).every(([a, b]) => b < from || a > to));
  const lost = new Map<string, FaultEvent>();
  const violations: Violation[] = [];
  const check = (agent: string, disconnected: FaultEvent, connectedAt: number): void => {
    const from = disconnected.time + fleet.reconnectMs;
    const to = from + fleet.pollMs;
    if (connectedAt <= to || !upThroughout(from, to)) return;
    const when = Number.isFinite(connectedAt) ? `only at ${connectedAt}` : 'never again';
    violations.push(violation(INVARIANT, `${agent} lost its daemon (#${disconnected.index}, at ${disconnected.time}) and connected ${when}, though a daemon was up from ${from} to ${to}`, [disconnected.index]));
  };
  for (const record of agentEvents(history)) {
    if (record.kind === 'disconnected') lost.set(record.agent, record.event);
    if (record.kind !== 'connected') continue;
    const disconnected = lost.get(record.agent);
    lost.delete(record.agent);
    if (disconnected !== undefined) check(record.agent, disconnected, record.event.time);
  }
  const end = history.length === 0 ? 0 : history[history.length - 1]!.time;
  for (const [agent, disconnected] of lost) if (disconnected.time + fleet.reconnectMs + fleet.pollMs <= end) check(agent, disconnected, Infinity);
  return verdictOf(violations);
}
