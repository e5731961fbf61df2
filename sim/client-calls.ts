// The calls a controller's protocol makes, as messages over the simulated network: a store call
// (executed at the database node when it arrives) and a provider call (an external effect, or an
// inspection of one). Each parks its fiber until the reply or its timeout; a timeout or an unknown
// outcome retires the process (Jepsen's `info`), an unavailable store is a definite failure.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import { OPTIONAL_COMMANDS } from './capabilities.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Network } from './network.ts';
import type { EffectRequest } from './provider.ts';
import { EV_DELIVER, EV_WAKE, MSG_DB_REQ, MSG_INSP_REQ, MSG_PROV_REQ, Retired, TIMEOUT, WAKE_TIMEOUT, type Fiber, type Message, type Node, type SimQueue } from './sim-node.ts';

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
  block(fiber: Fiber): Promise<unknown>;
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
  if (delay >= 0) sim.queue.push(sim.now + delay, EV_DELIVER, 0, 0, { type: MSG_DB_REQ, from: node.name, to: 'db', fiber, waitId, payload: command, conn: sim.dbConn, listen, incarnation: node.proc, invoke } satisfies Message);
  sim.queue.push(sim.now + node.clock.trueDuration(sim.plan.rpcTimeoutMs), EV_WAKE, waitId, WAKE_TIMEOUT, fiber);
  const reply = await sim.block(fiber);
  sim.checkAlive(fiber);
  fiber.inFlight = null;
  if (reply === TIMEOUT) {
    sim.history.op(sim.now, process, 'info', command.kind, { error: 'timeout' });
    sim.retire(node, 'timeout');
    throw new Retired(process);
  }
  const r = reply as { error?: string; outcome?: unknown };
  if (r.error === 'unavailable') {
    sim.history.op(sim.now, process, 'fail', command.kind, { error: 'unavailable' });
    return null;
  }
  if (r.error === 'unknown') {
    sim.history.op(sim.now, process, 'info', command.kind, { error: 'unknown' });
    sim.retire(node, 'unknown-outcome');
    throw new Retired(process);
  }
  sim.history.op(sim.now, process, 'ok', command.kind, r.outcome);
  return r.outcome as OutcomeOf<C>;
}

/**
 * An external effect at the provider. A timeout is an unknown outcome: the process is retired
 * (Jepsen). Only a broken policy passes `carryOn`: then the call answers null and the fiber goes on
 * under a new process name, as a client whose retry layer swallowed the timeout would.
 */
export async function effectCall(sim: CallHost, fiber: Fiber, request: EffectRequest, attempt: number, carryOn: boolean): Promise<boolean | null> {
  sim.checkAlive(fiber);
  const value = { intentId: request.intentId, scope: request.scope, token: request.token ?? null, holder: request.holder, operation: request.operation, retrySafety: request.retrySafety, attempt };
  return providerCall(sim, fiber, 'effect', value, MSG_PROV_REQ, request, carryOn);
}

/** Asks the provider whether an effect was applied. */
export async function inspectCall(sim: CallHost, fiber: Fiber, intentId: string): Promise<boolean> {
  sim.checkAlive(fiber);
  return (await providerCall(sim, fiber, 'inspect', { intentId }, MSG_INSP_REQ, intentId, false)) as boolean;
}

async function providerCall(sim: CallHost, fiber: Fiber, f: string, value: unknown, type: number, payload: unknown, carryOn: boolean): Promise<boolean | null> {
  const process = fiber.process;
  sim.history.op(sim.now, process, 'invoke', f, value);
  fiber.inFlight = process;
  const waitId = ++fiber.waitId;
  const node = fiber.node;
  const delay = sim.network.transit(node.name, 'provider', sim.faultsOn);
  if (delay >= 0) sim.queue.push(sim.now + delay, EV_DELIVER, 0, 0, { type, from: node.name, to: 'provider', fiber, waitId, payload, conn: 0, listen: null } satisfies Message);
  sim.queue.push(sim.now + node.clock.trueDuration(sim.plan.rpcTimeoutMs), EV_WAKE, waitId, WAKE_TIMEOUT, fiber);
  const reply = await sim.block(fiber);
  sim.checkAlive(fiber);
  fiber.inFlight = null;
  if (reply === TIMEOUT) {
    sim.history.op(sim.now, process, 'info', f, { timedOut: true });
    if (carryOn) {
      fiber.process = `${process}:after-timeout`;
      return null;
    }
    sim.retire(node, `${f}-timeout`);
    throw new Retired(process);
  }
  const applied = (reply as { applied: boolean }).applied;
  sim.history.op(sim.now, process, 'ok', f, reply);
  return applied;
}
