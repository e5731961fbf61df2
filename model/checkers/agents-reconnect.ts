// agents-reconnect (seed 001 §114 "Agents may connect to any daemon endpoint", §115 "If connected
// daemon dies: reconnect to another daemon", §274): an agent that found its daemon gone is
// connected again by its first poll after its reconnect delay at which a daemon is up: by the end
// of the first poll window after the delay (windows of one poll period, from the delay's end) in
// which some daemon was up throughout. From `crash` to `restart` a daemon is down (a restart
// without a crash record follows a process that retired itself, down for 1 ms).

import type { FaultEvent, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { agentEvents, agentFleet, downIntervals, runEnd, someDaemonUp } from './agent-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'agents-reconnect';

export function agentsReconnect(history: History): Verdict {
  const fleet = agentFleet(history);
  if (fleet === null) return verdictOf([]);
  const down = downIntervals(history);
  const upThroughout = (from: number, to: number): boolean => someDaemonUp(fleet, down, from, to);
  const lost = new Map<string, FaultEvent>();
  const violations: Violation[] = [];
  const end = runEnd(history);
  // The first poll window after the delay in which a daemon was up throughout decides: the agent
  // polls at least once inside it, and must have connected by its end.
  const check = (agent: string, disconnected: FaultEvent, connectedAt: number): void => {
    for (let from = disconnected.time + fleet.reconnectMs; from + fleet.pollMs <= Math.min(connectedAt, end); from += fleet.pollMs) {
      const to = from + fleet.pollMs;
      if (!upThroughout(from, to)) continue;
      if (connectedAt <= to) return;
      const when = Number.isFinite(connectedAt) ? `only at ${connectedAt}` : 'never again';
      violations.push(violation(INVARIANT, `${agent} lost its daemon (#${disconnected.index}, at ${disconnected.time}) and connected ${when}, though a daemon was up from ${from} to ${to}`, [disconnected.index]));
      return;
    }
  };
  for (const record of agentEvents(history)) {
    if (record.kind === 'disconnected') lost.set(record.agent, record.event);
    if (record.kind !== 'connected') continue;
    const disconnected = lost.get(record.agent);
    lost.delete(record.agent);
    if (disconnected !== undefined) check(record.agent, disconnected, record.event.time);
  }
  for (const [agent, disconnected] of lost) check(agent, disconnected, Infinity);
  return verdictOf(violations);
}
