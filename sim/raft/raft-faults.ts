// What the faults of message-level consensus do to its voters (docs/ARCHITECTURE.md "Consensus:
// abstract or message-level"): a new leader that crashes or is cut off from all but one voter as
// it appends its entry, a voter that loses its durable state (001 §167–§169), and a voter
// upgraded to the next binary (001 §149–§156, §269). Each is recorded where it happens.

import type { Node, Sim } from '../engine.ts';
import type { Stream } from '../prng.ts';
import type { CoordinationOptions } from '../../scenarios/coordination-options.ts';
import type { CoordinationNemesis } from '../coordination/coordination-nemesis.ts';
import type { RaftNode } from './raft-node.ts';
import type { RaftMessage } from './raft-protocol.ts';

export interface Voter {
  readonly raft: RaftNode;
  readonly node: Node;
}

/** What a leader transfer needs of the service: to end a leadership's role, and to send a message. */
export interface TransferHost {
  stopRole(voter: Voter): void;
  send(message: RaftMessage): void;
}

export class RaftFaults {
  /** Voters whose durable state a fault took. */
  private readonly wiped = new Set<string>();

  constructor(
    private readonly sim: Sim,
    private readonly options: CoordinationOptions,
    private readonly stream: Stream,
    private readonly nemesis: CoordinationNemesis,
    private readonly voters: ReadonlyMap<string, Voter>,
    private readonly host: TransferHost,
  ) {}

  /**
   * leader-transfer: the running leader with the highest term is drained (001 §270, §294). It stops
   * its role first: inactive, its loops cancelled, its epoch dropped, and it follows; then it tells
   * its most caught-up follower to stand for election now. Without the stop order it hands on and
   * goes on leading until it hears of the new term.
   */
  transfer(): void {
    let leader: Voter | null = null;
    for (const voter of this.voters.values()) if (voter.raft.role === 'leader' && !voter.node.down && voter.node.pausedUntil <= this.sim.now && (leader === null || voter.raft.term > leader.raft.term)) leader = voter;
    const to = leader?.raft.mostCaughtUp() ?? null;
    if (leader === null || to === null) return;
    this.sim.fault('leader-transfer', { process: leader.node.proc, node: leader.raft.name, to });
    const term = leader.raft.term;
    if (this.sim.policy.stopRoleBeforeTransfer) {
      this.host.stopRole(leader);
      leader.raft.stepDown();
    }
    this.host.send({ type: 'timeout-now', from: leader.raft.name, to, term });
  }

  /** `newLeaderCrashPct`: when the new leader should crash, if it should. */
  newLeaderCrashAt(): number | null {
    if (!this.sim.faultsOn || !this.stream.chance(this.options.faults.newLeaderCrashPct)) return null;
    return this.sim.now + this.stream.int(1, 2 * this.options.heartbeatMs);
  }

  /** `newLeaderIsolatePct`: the leader keeps one voter and loses the others, so its entry reaches a minority. */
  maybeIsolate(voter: Voter): void {
    const faults = this.options.faults;
    if (!this.sim.faultsOn || !this.stream.chance(faults.newLeaderIsolatePct)) return;
    const others = [...this.voters.keys()].filter((name) => name !== voter.raft.name);
    if (others.length < 2) return;
    const buddy = this.stream.pick(others);
    const durationMs = this.stream.int(1, Math.max(1, faults.newLeaderIsolateMsMax));
    this.nemesis.cut(others.filter((name) => name !== buddy).map((name) => [voter.raft.name, name] as const), durationMs);
  }

  /** A leader crashes (`newLeaderCrashPct`): recorded as the coordination nemesis records a leader crash. */
  crash(voter: Voter): void {
    this.down(voter, Math.max(1, this.options.faults.leaderDownMs));
  }

  /** voter-state-loss: the voter goes down, and comes back with its durable state wiped (001 §167–§169). */
  loseState(name: string, downMs: number): void {
    const voter = this.voters.get(name);
    if (voter === undefined || voter.node.down) return;
    // A voter that lost its state never votes again: the nemesis takes at most a minority's state,
    // so that a majority is left that may vote (the cluster's own tolerance, 001 §66–§71).
    if (!this.wiped.has(name) && this.wiped.size + 1 > this.voters.size - voter.raft.majority) return;
    this.wiped.add(name);
    this.sim.fault('voter-state-loss', { node: name, process: voter.node.proc });
    this.down(voter, Math.max(1, downMs));
    voter.raft.loseState();
  }

  /** voter-upgrade: the voter stops and comes back running a binary that reads one command version more. */
  upgrade(name: string, downMs: number): void {
    const voter = this.voters.get(name);
    if (voter === undefined || voter.node.down) return;
    voter.raft.version += 1;
    this.sim.fault('voter-upgrade', { node: name, process: voter.node.proc, version: voter.raft.version });
    this.down(voter, Math.max(1, downMs));
  }

  private down(voter: Voter, downMs: number): void {
    const node = voter.node;
    this.sim.fault('crash', { node: node.name, process: node.proc, leader: voter.raft.role === 'leader' });
    this.sim.retire(node, 'crash', downMs);
  }
}
