// stream-gapless (seed 001 §112 "On disconnect, client reconnects/backfills", §113, §116, §275):
// every agent receives the event stream in order, each event once, with no gap, across every
// reconnect and whichever daemon serves it: the sequence numbers it was delivered over the run are
// 1, 2, 3, ... A gap is an event it will never see; a repeat, one it would act on twice.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { agentEvents } from './agent-records.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'stream-gapless';

export function streamGapless(history: History): Verdict {
  const violations: Violation[] = [];
  const last = new Map<string, number>();
  const reported = new Set<string>();
  for (const record of agentEvents(history)) {
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
  return verdictOf(violations);
}
