// stream-gapless (seed 001 §112 "On disconnect, client reconnects/backfills", §113, §116, §275):
// every agent receives the event stream in order, each event once, with no gap, across every
// reconnect and whichever daemon serves it: the sequence numbers it was delivered over the run are
// 1, 2, 3, ... A gap is an event it will never see; a repeat, one it would act on twice.
//
// Nor may the stream stop short. The events are the jobs' (a job accepted: its first SubmitJob
// answered JobSubmitted or JobExists; a job done: its `job` ok). Once faults heal (`liveness-phase`), an agent gets to every event written up to
// `reconnectMs + 3 × pollMs` before the run's end (a poll to find its daemon gone, the delay, a
// poll to connect, a poll to receive), judged when some daemon was up throughout that last window.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { agentEvents, agentFleet, downIntervals, runEnd, someDaemonUp } from './agent-records.ts';
import { acknowledgedSubmissions } from './job-records.ts';
import { controllerOps, faultsOf, pairOperations } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'stream-gapless';

export function streamGapless(history: History): Verdict {
  const violations: Violation[] = [];
  const last = new Map<string, number>();
  const reported = new Set<string>();
  for (const record of agentEvents(history)) {
    if (record.kind === 'connected') last.set(record.agent, last.get(record.agent) ?? 0);
    if (record.kind !== 'received' || reported.has(record.agent)) continue;
    for (const seq of record.seqs) {
      const expected = (last.get(record.agent) ?? 0) + 1;
      last.set(record.agent, seq);
      if (seq === expected) continue;
      reported.add(record.agent);
      const what = seq > expected ? `skipped events ${expected}–${seq - 1}` : `received event ${seq} again (or out of order)`;
      violations.push(violation(INVARIANT, `${record.agent} ${what}: ${record.daemon} delivered ${seq} when ${expected} was next (#${record.event.index})`, [record.event.index]));
      break;
    }
  }
  violations.push(...stoppedShort(history, last, reported));
  return verdictOf(violations);
}

/** Agents that, once faults healed, end without every event written early enough to reach them. */
function stoppedShort(history: History, last: ReadonlyMap<string, number>, reported: ReadonlySet<string>): Violation[] {
  const fleet = agentFleet(history);
  const healed = faultsOf(history, ['liveness-phase'])[0];
  if (fleet === null || healed === undefined) return [];
  const end = runEnd(history);
  const by = end - fleet.reconnectMs - 3 * fleet.pollMs;
  if (by < healed.time || !someDaemonUp(fleet, downIntervals(history), by, end)) return [];
  const written = jobEventsBy(history, by);
  const short: Violation[] = [];
  for (const [agent, seq] of last) {
    if (seq >= written || reported.has(agent)) continue;
    short.push(violation(INVARIANT, `${agent} ends the run at event ${seq}, though ${written} events were written by ${by}, after faults healed at ${healed.time}`, [healed.index]));
  }
  return short;
}

/** The job events written up to `by`: each job's first acknowledged submission, each job done. */
function jobEventsBy(history: History, by: number): number {
  const operations = pairOperations(history);
  const accepted = [...acknowledgedSubmissions(operations).values()].filter((held) => held.known.time <= by).length;
  return accepted + controllerOps(operations, 'job').filter((job) => job.completion?.type === 'ok' && job.completion.time <= by).length;
}
