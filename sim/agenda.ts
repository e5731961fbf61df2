// What is on the agenda before a run starts: the capacities every semaphore is defined with, and
// the plan's steps, the snapshot cadence of failover and restore images, and the liveness phase.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import { faultPackage } from '../faults/index.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Plan } from './plan.ts';
import { EV_FAULT, EV_LIVENESS, EV_OP, EV_SNAPSHOT, SNAPSHOT_INTERVAL_MS, type SimQueue } from './sim-node.ts';

/** What the setup needs of the simulation. */
export interface AgendaHost {
  readonly now: number;
  readonly plan: Plan;
  readonly queue: SimQueue;
  readonly history: HistoryRecorder;
  readonly realFaults: RealFaultDriver | null;
  supports(kind: Command['kind']): boolean;
  executeDirect<C extends Command>(command: C, process?: string): Promise<OutcomeOf<C>>;
}

/** Capacities are defined once, before any operation starts (a deployment-time setting). */
export async function defineCapacities(sim: AgendaHost): Promise<void> {
  for (const { scope, capacity } of sim.plan.capacities) {
    const command = { kind: 'DefineCapacity' as const, scope, capacity };
    if (!sim.supports(command.kind)) continue;
    sim.history.op(sim.now, 'setup#1', 'invoke', command.kind, command);
    sim.history.op(sim.now, 'setup#1', 'ok', command.kind, await sim.executeDirect(command));
  }
}

/** Puts the plan's steps, the snapshot cadence and the liveness phase on the agenda. */
export function schedulePlan(sim: AgendaHost): void {
  const { plan, queue } = sim;
  const needsImages = plan.steps.some((s) => s.kind === 'fault' && faultPackage(s.fault).image !== undefined);
  if (needsImages && sim.realFaults === null) for (let t = 0; t < plan.horizonMs; t += SNAPSHOT_INTERVAL_MS) queue.push(t, EV_SNAPSHOT, 0, 0, null);
  // With real faults the image's age is made real ahead of the fault: the replication link is
  // cut `lagMs` before a failover, the backup taken `snapshotAgeMs` before a restore.
  if (sim.realFaults !== null) {
    for (const step of plan.steps) {
      const image = step.kind === 'fault' ? faultPackage(step.fault).image : undefined;
      if (step.kind === 'fault' && image !== undefined) queue.push(Math.max(0, step.at - image.ageMs(step.fault)), EV_SNAPSHOT, 0, 0, step.fault);
    }
  }
  for (const step of plan.steps) {
    if (step.kind === 'op') queue.push(step.at, EV_OP, 0, 0, { node: step.node, op: step.op });
    else queue.push(step.at, EV_FAULT, 0, 0, step.fault);
  }
  queue.push(plan.horizonMs, EV_LIVENESS, 0, 0, null);
}
