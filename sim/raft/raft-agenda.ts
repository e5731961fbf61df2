// What the message-level consensus puts on the simulator's agenda (raft-service.ts): its messages,
// each a one-way delivery with its own delay, lost on a cut link, to the network's loss or at
// `coordination.faults.messageLossPct`, and delivered twice at `messageDuplicatePct`; and each
// voter's election and heartbeat timers, which a newer generation of the same timer supersedes.

import { EV_COORD, type Node, type Sim } from '../engine.ts';
import type { Stream } from '../prng.ts';
import type { CoordinationOptions } from '../../scenarios/coordination-options.ts';
import type { FaultTimer } from '../coordination/coordination-nemesis.ts';
import type { MembershipFault } from '../coordination/faults.ts';
import type { RaftMessage } from './raft-protocol.ts';

export type RaftTimer =
  | { readonly kind: 'raft-message'; readonly message: RaftMessage }
  | { readonly kind: 'raft-election'; readonly node: string; readonly gen: number; readonly timeoutMs: number }
  | { readonly kind: 'raft-heartbeat'; readonly node: string; readonly gen: number }
  | { readonly kind: 'raft-crash'; readonly node: string; readonly term: number }
  | { readonly kind: 'raft-membership'; readonly fault: MembershipFault }
  | FaultTimer;

/** A voter's timers: only the latest generation of each fires. */
export interface TimedVoter {
  readonly raft: { readonly name: string };
  readonly node: Node;
  electionGen: number;
  heartbeatGen: number;
}

export class RaftAgenda {
  constructor(
    private readonly sim: Sim,
    private readonly options: CoordinationOptions,
    private readonly stream: Stream,
  ) {}

  send(message: RaftMessage): void {
    if (this.sim.faultsOn && this.stream.chance(this.options.faults.messageLossPct)) return;
    const copies = this.sim.faultsOn && this.stream.chance(this.options.faults.messageDuplicatePct) ? 2 : 1;
    for (let copy = 0; copy < copies; copy++) {
      const delay = this.sim.network.transit(message.from, message.to, this.sim.faultsOn);
      if (delay < 0) continue;
      this.at(this.sim.now + delay, { kind: 'raft-message', message });
    }
  }

  /** The election timer, a random timeout after `fromMs` (never now). */
  armElection(voter: TimedVoter, fromMs: number): void {
    voter.electionGen++;
    const timeoutMs = this.stream.int(this.options.electionTimeoutMsMin, this.options.electionTimeoutMsMax);
    this.at(Math.max(this.sim.now + 1, fromMs + timeoutMs), { kind: 'raft-election', node: voter.raft.name, gen: voter.electionGen, timeoutMs });
  }

  /** The next heartbeat, one interval of the voter's own clock from now. */
  armHeartbeat(voter: TimedVoter): void {
    this.at(this.sim.now + voter.node.clock.trueDuration(this.options.heartbeatMs), { kind: 'raft-heartbeat', node: voter.raft.name, gen: voter.heartbeatGen });
  }

  at(timeMs: number, timer: RaftTimer): void {
    this.sim.queue.push(timeMs, EV_COORD, 0, 0, timer);
  }
}
