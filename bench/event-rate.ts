// Simulator event rate against a bare event-queue loop (docs/ARCHITECTURE.md "Performance targets": at least
// 30%). The simulator runs standard-mix plans and counts the events it scheduled; the baseline
// drives the same EventQueue through the same number of pushes and pops, with a handler that only
// schedules the next event. The ratio says what the simulation costs on top of its agenda. A
// second baseline awaits one promise per event: the floor for a simulator whose protocol code is
// async and resumed from the loop.

import { createMemoryStoreSync } from '../adapters/memory.ts';
import { loadScenario } from '../scenarios/index.ts';
import { controllerHooks } from '../sim/controller.ts';
import { controllerPolicy } from '../model/controller-policy.ts';
import { Sim } from '../sim/engine.ts';
import { EventQueue } from '../sim/event-queue.ts';
import { generatePlan } from '../sim/generate-plan.ts';
import type { Plan } from '../sim/plan.ts';
import { median, rounds } from './sample.ts';

export interface EventRateOptions {
  readonly scenario: string;
  /** Seeds per round (1..seeds). */
  readonly seeds: number;
  readonly rounds: number;
}

export interface EventRateSample {
  readonly simEventsPerSecond: number;
  readonly bareEventsPerSecond: number;
  readonly ratio: number;
  /** The same loop awaiting one promise per event: the least a fiber resume costs. */
  readonly awaitingEventsPerSecond: number;
}

export interface EventRateResult extends EventRateSample {
  /** Events the simulator scheduled per run (the baseline does as many pushes and pops). */
  readonly eventsPerRun: number;
  readonly samples: ReadonlyArray<EventRateSample>;
}

/** Plays one plan on the memory store; returns the events it scheduled. */
async function simulate(plan: Plan): Promise<number> {
  const sim = new Sim(plan, controllerPolicy({}), controllerHooks);
  sim.attachStore(createMemoryStoreSync({ time: sim.storeTime, callerClock: sim.callerClock }));
  await sim.defineCapacities();
  sim.schedule();
  await sim.run();
  return sim.queue.scheduled;
}

/**
 * The baseline's load: the queue starts with `initial` events at the plan's times, then each popped
 * event schedules one more (1–7 ms later) until `total` were pushed; then the queue drains. `total`
 * pushes and pops.
 */
class BaselineLoad {
  readonly queue = new EventQueue();
  private pushed = 0;

  constructor(
    initialTimes: ReadonlyArray<number>,
    private readonly total: number,
  ) {
    for (const time of initialTimes) {
      if (this.pushed >= total) break;
      this.queue.push(time, 1, 0, 0, null);
      this.pushed++;
    }
  }

  /** The one more event an event popped at `time` schedules, while fewer than `total` were pushed. */
  refill(time: number): void {
    if (this.pushed >= this.total) return;
    this.queue.push(time + 1 + (this.pushed % 7), 1, this.pushed, 0, null);
    this.pushed++;
  }
}

/** The baseline with one `await` per event, as a simulator whose handlers resume async code pays. */
export async function awaitingLoop(initialTimes: ReadonlyArray<number>, total: number): Promise<number> {
  const load = new BaselineLoad(initialTimes, total);
  let popped = 0;
  for (let event = load.queue.pop(); event !== undefined; event = load.queue.pop()) {
    popped++;
    await new Promise<void>((resolve) => resolve());
    load.refill(event.time);
  }
  return popped;
}

/** The baseline: the event loop with nothing but the queue. */
export function bareLoop(initialTimes: ReadonlyArray<number>, total: number): number {
  const load = new BaselineLoad(initialTimes, total);
  let popped = 0;
  for (let event = load.queue.pop(); event !== undefined; event = load.queue.pop()) {
    popped++;
    load.refill(event.time);
  }
  return popped;
}

export async function measureEventRate(options: EventRateOptions): Promise<EventRateResult> {
  const scenario = loadScenario(options.scenario);
  const plans = Array.from({ length: options.seeds }, (_, i) => generatePlan(scenario, i + 1));
  const initialTimes = plans.map((plan) => plan.steps.map((step) => step.at));
  // Warm-up: both loops compiled before anything is timed.
  for (let i = 0; i < Math.min(5, plans.length); i++) bareLoop(initialTimes[i]!, await simulate(plans[i]!));
  let eventsPerRun = 0;
  const samples = await rounds(options.rounds, async () => {
    const counts: number[] = [];
    const simStart = performance.now();
    for (const plan of plans) counts.push(await simulate(plan));
    const simMs = performance.now() - simStart;
    const total = counts.reduce((sum, n) => sum + n, 0);
    const bareStart = performance.now();
    let popped = 0;
    for (let i = 0; i < plans.length; i++) popped += bareLoop(initialTimes[i]!, counts[i]!);
    const bareMs = performance.now() - bareStart;
    if (popped !== total) throw new Error(`the baseline popped ${popped} events, the simulator scheduled ${total}`);
    const awaitingStart = performance.now();
    for (let i = 0; i < plans.length; i++) await awaitingLoop(initialTimes[i]!, counts[i]!);
    const awaitingMs = performance.now() - awaitingStart;
    eventsPerRun = total / plans.length;
    const simEventsPerSecond = total / (simMs / 1000);
    const bareEventsPerSecond = total / (bareMs / 1000);
    return { simEventsPerSecond, bareEventsPerSecond, ratio: simEventsPerSecond / bareEventsPerSecond, awaitingEventsPerSecond: total / (awaitingMs / 1000) };
  });
  return {
    simEventsPerSecond: median(samples.map((s) => s.simEventsPerSecond)),
    bareEventsPerSecond: median(samples.map((s) => s.bareEventsPerSecond)),
    ratio: median(samples.map((s) => s.ratio)),
    awaitingEventsPerSecond: median(samples.map((s) => s.awaitingEventsPerSecond)),
    eventsPerRun,
    samples,
  };
}
