// What the nemesis needs of the simulator (sim/nemesis.ts): the clock, the plan, the parts it
// breaks and heals, and the few actions it takes. The simulator (engine.ts) is one; the nemesis
// does not know the rest of it, and engine.ts and nemesis.ts do not import each other.

import type { RealFaultDriver } from '../adapters/faults/real-faults.ts';
import type { Store } from '../adapters/port.ts';
import type { Command } from '../model/commands.ts';
import type { FaultKind } from '../model/history.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { ScriptedFault } from '../faults/index.ts';
import type { HistoryRecorder } from './history-recorder.ts';
import type { Network } from './network.ts';
import type { Plan } from './plan.ts';
import type { Provider } from './provider.ts';
import type { ShadowModel } from './shadow-model.ts';
import type { StoreSessions } from './store-sessions.ts';
import type { Node, SimCoordination } from './sim-node.ts';
import type { Federation } from './federation/federation.ts';

export interface NemesisHost {
  readonly now: number;
  readonly plan: Plan;
  readonly nodes: ReadonlyMap<string, Node>;
  readonly network: Network;
  readonly provider: Provider;
  readonly history: HistoryRecorder;
  readonly store: Store;
  readonly shadow: ShadowModel;
  readonly coordination: SimCoordination | null;
  readonly federation: Federation | null;
  readonly realFaults: RealFaultDriver | null;
  readonly realActions: Array<{ f: string; outcome: string }>;
  faultsOn: boolean;
  dbDown: boolean;
  dbConn: number;
  recoveryGeneration: number;
  /** What the store is told of the processes' sessions. */
  readonly sessions: Pick<StoreSessions, 'faultRecorded'>;
  /** Records a fault event in the history. */
  fault(f: FaultKind, value: Readonly<Record<string, unknown>>): void;
  /** Schedules the end of a timed fault. */
  scheduleFaultEnd(time: number, fault: ScriptedFault): void;
  /** Crashes a node's process (it restarts after `downMs`). */
  retire(node: Node, why: string, downMs?: number): void;
  /** A command run at the database host, outside any client's session. */
  executeDirect<C extends Command>(command: C, process?: string): Promise<OutcomeOf<C>>;
}
