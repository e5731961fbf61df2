// An operator's membership requests (seed 001 §59–§66, §157, §227, §230–§233): `member-add`,
// `member-promote` and `member-remove` are committed by whoever leads with its role, and retried
// while there is no such leader; every committed change is recorded as the audit event
// `membership-change` `{ version, change, node, voters, learners, by }`, and a refused one as
// `membership-rejected`. A node that joins is issued its certificate, and a removed node's is
// revoked (§215, peer-trust.ts).

import { learnersOf, votersOf, type MembershipChange } from '../../model/cluster-membership.ts';
import { incarnationId } from '../../model/node-incarnation.ts';
import type { Sim } from '../engine.ts';
import type { Cluster } from './cluster.ts';
import type { MembershipFault } from './faults.ts';
import { OPERATOR_RETRY_MS, type OperatorHost } from './operator-host.ts';


/** Commits an operator's membership request through the running leader, or retries it later. */
export function applyMembership(host: OperatorHost, fault: MembershipFault): void {
  const sim = host.sim();
  const cluster = host.cluster();
  const retry = (): void => {
    if (sim.now + OPERATOR_RETRY_MS < sim.plan.horizonMs) host.later({ kind: 'membership', fault }, sim.now + OPERATOR_RETRY_MS);
    else sim.fault('membership-rejected', { change: fault.f, node: fault.node, reason: 'no-leader-before-horizon', by: null });
  };
  const leader = host.leaderWithGuard();
  if (leader === null) return retry();
  const target = fault.node === 'leader' ? leader.name : fault.node;
  const kind = fault.f === 'member-add' ? 'add-learner' : fault.f === 'member-promote' ? 'promote' : 'remove';
  const change: MembershipChange = { kind, node: target };
  // What the learner knew when its promotion was proposed, for the audit record (§62, §227).
  const catchUp = kind === 'promote' ? cluster.catchUpOf(target) : null;
  const outcome = cluster.changeMembership(leader, change, host.links(), sim.policy.stepDownOnRemoval);
  if (outcome.kind === 'NoQuorum') return retry();
  const by = incarnationId(leader.incarnation);
  if (outcome.kind === 'MembershipRejected') {
    // A learner still catching up is promoted later; anything else is refused for good.
    if (outcome.reason === 'not-caught-up') return retry();
    sim.fault('membership-rejected', { change: kind, node: target, reason: outcome.reason, by });
    return;
  }
  recordMembership(sim, cluster, kind, target, by, catchUp === null ? {} : { learnerEpoch: catchUp.knownEpoch, committedEpoch: catchUp.committedEpoch });
  if (kind === 'add-learner') host.trust().enroll(target);
  if (kind === 'remove') host.trust().revoke(target, 'removed');
  host.quorumChanged();
}

/** The audit record of the committed configuration (the bootstrap one, or a change). */
export function recordMembership(sim: Sim, cluster: Cluster, change: string, node: string | null, by: string | null, extra: Readonly<Record<string, number>> = {}): void {
  // The broken audit leaves removals out: the change is committed all the same.
  if (change === 'remove' && !sim.policy.auditEveryMembershipChange) return;
  const membership = cluster.committed.membership;
  sim.fault('membership-change', { version: membership.version, change, node, voters: votersOf(membership), learners: learnersOf(membership), by, ...extra });
}
