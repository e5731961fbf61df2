// The calls a controller's protocol makes, as messages over the simulated network: a store call
// (executed at the database node when it arrives) and a provider call (an external effect, or an
// inspection of one). Each parks its fiber until the reply or its timeout; a timeout or an unknown
// outcome retires the process (Jepsen's `info`), an unavailable store is a definite failure.

import { strict as assert } from 'node:assert';
import type { Command } from '../model/commands.ts';
import { isOutcomeOf } from '../model/outcome-kinds.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import { OPTIONAL_COMMANDS } from './capabilities.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Network } from './network.ts';
import type { EffectReply, EffectRequest } from './provider.ts';
import { EV_DELIVER, EV_WAKE, MSG_DB_REP, MSG_DB_REQ, MSG_INSP_REQ, MSG_PROV_REP, MSG_PROV_REQ, OUTCOME_UNKNOWN, Retired, TIMEOUT, UNAVAILABLE, WAKE_TIMEOUT, type Fiber, type Node, type SimQueue, type Wake } from './sim-node.ts';

/** What the calls need of the simulation. */
export interface CallHost {
  readonly now: number;
  readonly dbConn: number;
  readonly faultsOn: boolean;
  readonly queue: SimQueue;
  readonly network: Network;
  readonly history: HistoryRecorder;
  readonly plan: { readonly rpcTimeoutMs: number };
  /** Required command kinds the run would have sent and the store does not implement. */
  readonly unsent: Set<string>;
  supports(kind: Command['kind']): boolean;
  checkAlive(fiber: Fiber): void;
  block(fiber: Fiber): Promise<Wake>;
  retire(node: Node, why: string): void;
}

/** A store call: request message → executed at the database on arrival → reply message. */
export async function storeCall<C extends Command>(sim: CallHost, fiber: Fiber, command: C, process: string, listen: ReadonlyArray<string> | null): Promise<OutcomeOf<C> | null> {
  sim.checkAlive(fiber);
  // A command the store does not implement (sim/capabilities.ts) is never sent: the controller
  // does without an optional one; a required one makes the run untested (sim/run.ts).
  if (!sim.supports(command.kind)) {
    if (!OPTIONAL_COMMANDS.has(command.kind)) sim.unsent.add(command.kind);
    return null;
  }
  if (listen !== null) fiber.notified = false;
  const invoke = sim.history.op(sim.now, process, 'invoke', command.kind, command);
  fiber.inFlight = process;
  const waitId = ++fiber.waitId;
  const node = fiber.node;
  const delay = sim.network.transit(node.name, 'db', sim.faultsOn);
  if (delay >= 0) sim.queue.push(sim.now + delay, EV_DELIVER, 0, 0, { type: MSG_DB_REQ, from: node.name, to: 'db', fiber, waitId, payload: command, conn: sim.dbConn, listen, incarnation: node.proc, invoke });
  sim.queue.push(sim.now + node.clock.trueDuration(sim.plan.rpcTimeoutMs), EV_WAKE, waitId, WAKE_TIMEOUT, fiber);
  const reply = await sim.block(fiber);
  sim.checkAlive(fiber);
  fiber.inFlight = null;
  if (reply === TIMEOUT) {
    sim.history.op(sim.now, process, 'info', command.kind, { error: 'timeout' });
    sim.retire(node, 'timeout');
    throw new Retired(process);
  }
  if (reply?.type !== MSG_DB_REP) assert.fail(`a store call is woken by its reply or its timeout, not ${String(reply?.type)}`);
  const answer = reply.payload;
  if (answer === UNAVAILABLE) {
    sim.history.op(sim.now, process, 'fail', command.kind, { error: 'unavailable' });
    return null;
  }
  if (answer === OUTCOME_UNKNOWN) {
    sim.history.op(sim.now, process, 'info', command.kind, { error: 'unknown' });
    sim.retire(node, 'unknown-outcome');
    throw new Retired(process);
  }
  // The database checked the answer against the port; this ties it to C for the compiler again.
  if (!isOutcomeOf(command, answer)) assert.fail(`the database answered ${command.kind} with ${answer.kind}`);
  sim.history.op(sim.now, process, 'ok', command.kind, answer);
  return answer;
}

/** An external effect at the provider. A timeout is an unknown outcome: the process is retired (Jepsen). */
export async function effectCall(sim: CallHost, fiber: Fiber, request: EffectRequest, attempt: number): Promise<boolean> {
  const process = fiber.process;
  const reply = await sendEffect(sim, fiber, request, attempt);
  if (reply !== TIMEOUT) return reply.applied;
  sim.retire(fiber.node, 'effect-timeout');
  throw new Retired(process);
}

/**
 * An effect as only a broken policy sends it: a timeout answers null and the fiber goes on under a
 * new process name, as a client whose retry layer swallowed the timeout would.
 */
export async function effectCarryingOn(sim: CallHost, fiber: Fiber, request: EffectRequest, attempt: number): Promise<boolean | null> {
  const process = fiber.process;
  const reply = await sendEffect(sim, fiber, request, attempt);
  if (reply !== TIMEOUT) return reply.applied;
  fiber.process = `${process}:after-timeout`;
  return null;
}

/** Sends an effect to the provider; settles with its reply or TIMEOUT. */
function sendEffect(sim: CallHost, fiber: Fiber, request: EffectRequest, attempt: number): Promise<EffectReply | typeof TIMEOUT> {
  sim.checkAlive(fiber);
  const value = { intentId: request.intentId, scope: request.scope, token: request.token ?? null, holder: request.holder, operation: request.operation, retrySafety: request.retrySafety, attempt };
  const delay = invokeProvider(sim, fiber, 'effect', value);
  if (delay >= 0) sim.queue.push(sim.now + delay, EV_DELIVER, 0, 0, { type: MSG_PROV_REQ, from: fiber.node.name, to: 'provider', fiber, waitId: fiber.waitId, payload: request, conn: 0, listen: null });
  return providerReply(sim, fiber, 'effect');
}

/** Asks the provider whether an effect was applied. */
export async function inspectCall(sim: CallHost, fiber: Fiber, intentId: string): Promise<boolean> {
  sim.checkAlive(fiber);
  const process = fiber.process;
  const delay = invokeProvider(sim, fiber, 'inspect', { intentId });
  if (delay >= 0) sim.queue.push(sim.now + delay, EV_DELIVER, 0, 0, { type: MSG_INSP_REQ, from: fiber.node.name, to: 'provider', fiber, waitId: fiber.waitId, payload: intentId, conn: 0, listen: null });
  const reply = await providerReply(sim, fiber, 'inspect');
  if (reply !== TIMEOUT) return reply.applied;
  sim.retire(fiber.node, 'inspect-timeout');
  throw new Retired(process);
}

/** Records a provider call's invoke and starts its wait (the fiber's new wait id); the delay of its request, -1 when it is lost. */
function invokeProvider(sim: CallHost, fiber: Fiber, f: string, value: unknown): number {
  sim.history.op(sim.now, fiber.process, 'invoke', f, value);
  fiber.inFlight = fiber.process;
  ++fiber.waitId;
  return sim.network.transit(fiber.node.name, 'provider', sim.faultsOn);
}

/** Parks a provider call until its reply (recorded `ok`) or its timeout (recorded `info`, answered TIMEOUT). */
async function providerReply(sim: CallHost, fiber: Fiber, f: string): Promise<EffectReply | typeof TIMEOUT> {
  const process = fiber.process;
  sim.queue.push(sim.now + fiber.node.clock.trueDuration(sim.plan.rpcTimeoutMs), EV_WAKE, fiber.waitId, WAKE_TIMEOUT, fiber);
  const reply = await sim.block(fiber);
  sim.checkAlive(fiber);
  fiber.inFlight = null;
  if (reply === TIMEOUT) {
    sim.history.op(sim.now, process, 'info', f, { timedOut: true });
    return TIMEOUT;
  }
  if (reply?.type !== MSG_PROV_REP) assert.fail(`a provider call is woken by its reply or its timeout, not ${String(reply?.type)}`);
  sim.history.op(sim.now, process, 'ok', f, reply.payload);
  return reply.payload;
}
