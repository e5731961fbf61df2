// The processes that call the store in one run of the check, and what happens to them. Each node
// of world.ts runs one process at a time, named as the simulator names controller incarnations
// (`n1#1`, then `n1#2` after a restart: sim/store-sessions.ts). A command step's call comes from a
// node's current process or, as a call held in the network reaches the store after its sender
// restarted, from the one before. A lifecycle step becomes the events the simulator would tell a
// store at that moment (adapters/port.ts LifecycleEvent); one that does not apply, such as
// resuming a process that is not paused, tells nothing. Calls are not held back by these states:
// a call of a paused, cut-off or crashed process is one it sent before, arriving now.

import type { CallContext, LifecycleEvent } from '../../adapters/port.ts';

/** Who makes a command step's call: a node's current process, or with `earlier` the one before it. */
export interface CallTemplate {
  readonly node: string;
  readonly earlier?: true;
}

/** The events that happen to one node's process (a database crash happens to every session). */
export type ProcessEvent = Exclude<LifecycleEvent['kind'], 'database-crash'>;

interface NodeState {
  incarnation: number;
  up: boolean;
  paused: boolean;
  cut: boolean;
}

export class Processes {
  private readonly nodes = new Map<string, NodeState>();

  private stateOf(node: string): NodeState {
    let state = this.nodes.get(node);
    if (state === undefined) {
      state = { incarnation: 1, up: true, paused: false, cut: false };
      this.nodes.set(node, state);
    }
    return state;
  }

  /** The call context of a command step. */
  call(template: CallTemplate): CallContext {
    const { incarnation } = this.stateOf(template.node);
    const used = template.earlier === true && incarnation > 1 ? incarnation - 1 : incarnation;
    return { process: `${template.node}#${used}`, node: template.node };
  }

  /** What the store is told when `event` happens to `node`'s process; empty when it does not apply. */
  events(event: ProcessEvent, node: string): ReadonlyArray<LifecycleEvent> {
    const state = this.stateOf(node);
    const told = (kind: LifecycleEvent['kind']): LifecycleEvent => ({ kind, process: `${node}#${state.incarnation}`, node });
    switch (event) {
      case 'crash':
        if (!state.up) return [];
        state.up = false;
        state.paused = false;
        return [told('crash')];
      case 'restart':
        return this.restart(state, told);
      case 'pause':
        if (!state.up || state.paused) return [];
        state.paused = true;
        return [told('pause')];
      case 'resume':
        if (!state.paused) return [];
        state.paused = false;
        return [told('resume')];
      case 'cut-off':
        if (state.cut) return [];
        state.cut = true;
        return [told('cut-off')];
      case 'reconnect':
        if (!state.cut) return [];
        state.cut = false;
        return [told('reconnect')];
    }
  }

  /**
   * A new incarnation starts. A process still running is crashed first (the simulator restarts
   * only a crashed node), and a node restarted while cut off is cut off again, as the simulator
   * tells it.
   */
  private restart(state: NodeState, told: (kind: LifecycleEvent['kind']) => LifecycleEvent): ReadonlyArray<LifecycleEvent> {
    const events: LifecycleEvent[] = state.up ? [told('crash')] : [];
    state.incarnation += 1;
    state.up = true;
    state.paused = false;
    events.push(told('restart'));
    if (state.cut) events.push(told('cut-off'));
    return events;
  }
}

/** The database server stopped: every session is gone (no process or node is named). */
export const DATABASE_CRASH: LifecycleEvent = Object.freeze({ kind: 'database-crash', process: null, node: null });
