// A lifecycle step: the store is told what happened to a process or to the database, as the
// simulator tells it (sim/store-sessions.ts), and its answer is compared with the reference
// model's. The reference semantics ties nothing to a process or a session (model/SEMANTICS.md
// "Processes and lifecycle"): no event changes the model's state, and no lease ends with a session,
// so the model's answer is always `{ ended: [] }`, and every later answer must be what it would
// have been without the event. A store without `lifecycle` is told nothing; the step still moves
// the node to its next process.

import type { LifecycleEvent } from '../../adapters/port.ts';
import type { StepRecord } from './step-record.ts';
import { DATABASE_CRASH, type Processes } from './processes.ts';
import type { StoreSession } from './session.ts';
import type { CheckStep } from './steps.ts';
import { answerOf } from './store-call.ts';

/** What the reference model answers to any lifecycle event. */
const NO_LEASE_ENDED = Object.freeze({ ended: Object.freeze([]) });

export async function lifecycleStep(
  session: StoreSession,
  processes: Processes,
  s: Extract<CheckStep, { kind: 'lifecycle' }>,
  index: number,
  timeoutMs: number,
): Promise<StepRecord> {
  const atMs = session.clock.t;
  const events = s.event === 'database-crash' ? [DATABASE_CRASH] : processes.events(s.event, s.node);
  if (events.length === 0) return { index, step: s, atMs, note: 'nothing to tell: it does not apply to the node\'s process now' };
  const store = session.store;
  const lifecycle = store.lifecycle;
  if (lifecycle === undefined) return { index, step: s, atMs, events, note: 'the store has no lifecycle(): not told' };
  const actual = await answerOf(
    async () => {
      const ended: unknown[] = [];
      for (const event of events) ended.push(...endedOf(await lifecycle.call(store, event)));
      return { ended };
    },
    timeoutMs,
    `lifecycle ${events.map((e) => e.kind).join(', ')}`,
  );
  return { index, step: s, atMs, events, expected: NO_LEASE_ENDED, actual };
}

/** The leases a lifecycle answer says ended; an answer the port does not allow is the store's bug. */
function endedOf(answer: unknown): ReadonlyArray<unknown> {
  if (answer === undefined || answer === null) return [];
  const ended = typeof answer === 'object' ? (answer as { ended?: unknown }).ended : answer;
  if (ended === undefined) return [];
  if (!Array.isArray(ended)) throw new Error(`the lifecycle answer is not { ended: [...] }: ${JSON.stringify(answer).slice(0, 200)}`);
  return ended;
}

/** A lifecycle event as a counterexample prints it: `crash n1#1`, `database-crash`. */
export function describeEvent(event: LifecycleEvent): string {
  return event.process === null ? event.kind : `${event.kind} ${event.process}`;
}
