// Operators' membership requests on message-level consensus (seed 001 §59–§66, §157, §227): a
// `member-add`, `member-promote` or `member-remove` is proposed by the leader that holds its role
// as a ChangeMembership entry of its log, one at a time (the previous change committed first), and
// a promotion only once the learner's log matches the leader's up to its commit index (it caught
// up, §62). Nodes use a configuration as soon as they hold it (raft-config.ts). A request that
// finds no such leader, or a change still in flight, is retried until the horizon, and so is one
// whose change is not yet in the committed configuration (its entry may be lost with its leader);
// a change that is there is done. The first node
// to apply a committed change writes its audit record, `membership-change` `{ version, change,
// node, voters, learners, by }` (a promotion also with `learnerEpoch` and `committedEpoch`: the
// epoch of what the learner's log matched and the epoch committed when it was proposed), which
// learner-before-voter and removed-node-no-authority judge as they do on the abstract consensus.

import { changeMembership, isVoter, learnersOf, votersOf, type MembershipChange } from '../../model/cluster-membership.ts';
import { incarnationId, type NodeIncarnation } from '../../model/node-incarnation.ts';
import { lastIndex } from '../../model/raft-log.ts';
import type { Node, Sim } from '../engine.ts';
import type { MembershipFault } from '../coordination/faults.ts';
import { stateAt } from './raft-config.ts';
import type { RaftNode } from './raft-node.ts';
import type { RaftEntry } from './raft-protocol.ts';
import type { CoordinationState } from '../../model/coordination-epoch.ts';

/** An operator retries a request that found no leader, or a change still in flight, this often. */
const RETRY_MS = 100;

export interface MembershipSeat {
  readonly raft: RaftNode;
  readonly node: Node;
  readonly incarnation: NodeIncarnation;
}

export class RaftMembership {
  /** What a proposal knew of its learner's catch-up, by log index, for the audit record. */
  private readonly catchUps = new Map<string, { readonly learnerEpoch: number; readonly committedEpoch: number }>();
  private readonly recorded = new Set<number>();
  /** The node a request naming "the leader" chose when it first found one. */
  private readonly named = new Map<MembershipFault, string>();

  constructor(
    private readonly sim: Sim,
    /** The leader that holds its role now, running, or null. */
    private readonly leader: () => MembershipSeat | null,
    /** Hands the request back at `at`. */
    private readonly later: (fault: MembershipFault, at: number) => void,
  ) {}

  request(fault: MembershipFault): void {
    const sim = this.sim;
    const retry = (reason: string): void => {
      if (sim.now + RETRY_MS < sim.plan.horizonMs) this.later(fault, sim.now + RETRY_MS);
      else sim.fault('membership-rejected', { change: fault.f, node: fault.node, reason, by: null });
    };
    const seat = this.leader();
    if (seat === null) return retry('no-leader-before-horizon');
    const raft = seat.raft;
    const target = fault.node === 'leader' ? (this.named.get(fault) ?? raft.name) : fault.node;
    this.named.set(fault, target);
    const kind = fault.f === 'member-add' ? 'add-learner' : fault.f === 'member-promote' ? 'promote' : 'remove';
    // The operator looks at the committed configuration: a change already in it is done.
    const committed = raft.committedMembership;
    const role = committed.roles.get(target);
    if ((kind === 'add-learner' && role !== undefined) || (kind === 'promote' && role === 'voter') || (kind === 'remove' && committed.removed.has(target))) return;
    if (!raft.settled) return retry('change-in-flight-at-horizon');
    const change: MembershipChange = { kind, node: target };
    const caughtUp = kind !== 'promote' || !sim.policy.promoteWhenCaughtUp || raft.matchOf(target) >= raft.commitIndex;
    const checked = changeMembership(raft.membership, change, caughtUp);
    if (checked.kind === 'MembershipRejected') {
      if (checked.reason === 'not-caught-up') return retry('not-caught-up-by-horizon');
      sim.fault('membership-rejected', { change: kind, node: target, reason: checked.reason, by: incarnationId(seat.incarnation) });
      return;
    }
    raft.propose({ kind: 'ChangeMembership', term: raft.term, change, caughtUp, leader: seat.incarnation, version: raft.commandVersion() });
    if (kind === 'promote') this.catchUps.set(`${lastIndex(raft.log)}/${raft.term}`, { learnerEpoch: raft.matchOf(target) < raft.log.base ? 0 : stateAt(raft.log, raft.snapshot, raft.matchOf(target)).epoch, committedEpoch: raft.applied.epoch });
    // It looks again later: an entry lost with its leader before it was committed is proposed again.
    retry('not-committed-by-horizon');
  }

  /**
   * `seat` applied the committed change at `index`: the first to apply it writes the audit record.
   * True when the change took `seat` out of the voters: a leader steps down (§64).
   */
  applied(seat: MembershipSeat, index: number, entry: RaftEntry, state: CoordinationState): boolean {
    const command = entry.command;
    if (command.kind !== 'ChangeMembership') return false;
    // The configuration right after this entry (a batch may commit more than one).
    const membership = state.membership;
    if (!this.recorded.has(index)) {
      this.recorded.add(index);
      const by = incarnationId(command.leader);
      this.sim.fault('membership-change', { version: membership.version, change: command.change.kind, node: command.change.node, voters: votersOf(membership), learners: learnersOf(membership), by, ...(this.catchUps.get(`${index}/${entry.term}`) ?? {}) });
    }
    return !isVoter(membership, seat.raft.name);
  }
}
