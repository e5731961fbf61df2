// What is on the agenda before a run starts: the capacities every semaphore is defined with, and
// the plan's steps, the snapshot cadence of failover and restore images, and the liveness phase.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import type { EventQueue } from './event-queue.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Plan } from './plan.ts';
import { EV_FAULT, EV_LIVENESS, EV_OP, EV_SNAPSHOT, SNAPSHOT_INTERVAL_MS } from './sim-node.ts';

/** What the setup needs of the simulation. */
export interface AgendaHost {
  readonly now: number;
  readonly plan: Plan;
  readonly queue: EventQueue;
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
  const needsImages = plan.steps.some((s) => s.kind === 'fault' && (s.fault.f === 'db-failover' || s.fault.f === 'db-restore'));
  if (needsImages && sim.realFaults === null) for (let t = 0; t < plan.horizonMs; t += SNAPSHOT_INTERVAL_MS) queue.push(t, EV_SNAPSHOT, 0, 0, null);
  // With real faults the replica's lag and the backup's age are made real ahead of the fault:
  // the replication link is cut `lagMs` before the failover, the backup taken `snapshotAgeMs` before the restore.
  if (sim.realFaults !== null) {
    for (const step of plan.steps) {
      if (step.kind !== 'fault') continue;
      const ageMs = step.fault.f === 'db-failover' ? step.fault.lagMs : step.fault.f === 'db-restore' ? step.fault.snapshotAgeMs : null;
      if (ageMs !== null) queue.push(Math.max(0, step.at - ageMs), EV_SNAPSHOT, 0, 0, step.fault);
    }
  }
  for (const step of plan.steps) {
    if (step.kind === 'op') queue.push(step.at, EV_OP, 0, 0, { node: step.node, op: step.op });
    else queue.push(step.at, EV_FAULT, 0, 0, step.fault);
  }
  queue.push(plan.horizonMs, EV_LIVENESS, 0, 0, null);
}
