// A request delivered twice (seed 000 §283–§284: a client retries; seed 001 §84–§85: work is
// handed on at least once). A transport that retries a request whose reply was slow (a proxy,
// a message queue that redelivers until acknowledged) makes the store execute the same command
// twice, and the client reads the answer to the later delivery. A correct store answers that one
// as the rule book says for a command that already took effect (JobExists, InvalidState, a Stale
// handoff, NotWaiting, NotBlocked, an id already taken), and a correct client takes that answer
// for what it means. Only the workloads of `retried-and-late-requests` use it.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { Fiber, Sim } from './engine.ts';

/** Sends `command` twice, one delivery after the other, and gives both answers (null: no answer). */
export async function redelivered<C extends Command>(sim: Sim, fiber: Fiber, command: C): Promise<{ readonly first: OutcomeOf<C> | null; readonly again: OutcomeOf<C> | null }> {
  const first = await sim.call(fiber, command);
  const again = await sim.call(fiber, command);
  return { first, again };
}
