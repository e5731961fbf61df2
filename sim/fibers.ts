// Fibers: a controller's protocol is ordinary async code, and each of its blocking steps parks
// its fiber until the agenda wakes it. The driver resumes one fiber at a time and waits until that
// fiber parks again or ends, so exactly one piece of protocol code runs at any moment and the
// order is fixed by the agenda alone. A fiber ended by its process's retirement is not an error;
// anything else it throws is kept and ends the run (the loop rethrows it).

import { strict as assert } from 'node:assert';
import { EV_RESUME, EV_WAKE, Retired, TIMEOUT, WAKE_TIMEOUT, type Fiber, type HeldReply, type SimQueue, type Wake } from './sim-node.ts';

export type { HeldReply };

export class FiberDriver {
  private signal: (() => void) | null = null;
  /** What a fiber threw that was not its retirement; the loop ends the run with it. */
  failure: unknown = null;

  /** Parks the running fiber until the agenda wakes it with a matching wait id. */
  block(fiber: Fiber): Promise<Wake> {
    return new Promise<Wake>((resolve) => {
      fiber.resume = resolve;
      this.fireSignal();
    });
  }

  private fireSignal(): void {
    const s = this.signal;
    this.signal = null;
    if (s !== null) s();
  }

  /**
   * EV_WAKE: a fiber's wait `waitId` is over (`flag` WAKE_TIMEOUT: its call timed out). A stale
   * wake is ignored; a paused node wakes when it resumes. Null when there is nothing to run now.
   */
  wake(at: { readonly now: number; readonly queue: SimQueue }, fiber: Fiber, waitId: number, flag: number): Promise<void> | null {
    if (fiber.dead || fiber.waitId !== waitId) return null;
    if (fiber.node.pausedUntil > at.now) {
      at.queue.push(fiber.node.pausedUntil, EV_WAKE, waitId, flag, fiber);
      return null;
    }
    if (fiber.started && fiber.resume === null) return null;
    return this.step(fiber, flag === WAKE_TIMEOUT ? TIMEOUT : undefined);
  }

  /** EV_RESUME: a held reply is delivered, unless its wait is over or its node is still paused. */
  resumeHeld(at: { readonly now: number; readonly queue: SimQueue }, held: HeldReply): Promise<void> | null {
    const fiber = held.fiber;
    if (fiber.dead || fiber.waitId !== held.waitId) return null;
    if (fiber.node.pausedUntil > at.now) {
      at.queue.push(fiber.node.pausedUntil, EV_RESUME, 0, 0, held);
      return null;
    }
    if (fiber.resume === null) return null;
    return this.step(fiber, held.value);
  }

  /** Starts or resumes `fiber` with `value`; settles when it parks again or ends. */
  step(fiber: Fiber, value: Wake): Promise<void> {
    return new Promise<void>((done) => {
      this.signal = done;
      if (!fiber.started) {
        fiber.started = true;
        fiber.body(fiber).then(
          () => this.fireSignal(),
          (error: unknown) => {
            if (error instanceof Retired) {
              this.fireSignal();
              return;
            }
            this.failure = error;
            this.fireSignal();
          },
        );
        return;
      }
      const resume = fiber.resume;
      if (resume === null) assert.fail(`fiber ${fiber.process} is parked when woken`);
      fiber.resume = null;
      resume(value);
    });
  }
}

/** What the waits need of the simulation. */
export interface WaitHost {
  readonly now: number;
  readonly queue: SimQueue;
  block(fiber: Fiber): Promise<Wake>;
  checkAlive(fiber: Fiber): void;
}

/**
 * A waiter sleeps until the database notifies a scope it listens on (LISTEN/NOTIFY: a release,
 * handoff, cancelled wait or expiry), or until the long fallback poll on its local clock — a
 * notification can be lost with its connection or on the network (§87: no busy polling).
 */
export async function waitNotify(sim: WaitHost, fiber: Fiber, fallbackLocalMs: number): Promise<void> {
  sim.checkAlive(fiber);
  if (fiber.notified) {
    fiber.notified = false;
    return;
  }
  const waitId = ++fiber.waitId;
  fiber.notifyWaitId = waitId;
  sim.queue.push(sim.now + fiber.node.clock.trueDuration(fallbackLocalMs), EV_WAKE, waitId, 0, fiber);
  await sim.block(fiber);
  fiber.notifyWaitId = 0;
  fiber.notified = false;
  sim.checkAlive(fiber);
}

/** Sleep on the node's local clock. */
export async function sleepLocal(sim: WaitHost, fiber: Fiber, localMs: number): Promise<void> {
  const waitId = ++fiber.waitId;
  sim.queue.push(sim.now + fiber.node.clock.trueDuration(localMs), EV_WAKE, waitId, 0, fiber);
  await sim.block(fiber);
  sim.checkAlive(fiber);
}
