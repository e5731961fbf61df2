// The public API's side of the coordination layer (seed 001 §220–§223): public clients cannot
// propose raw coordination commands ("Critical"); an admin action goes through the typed cluster
// service, which validates it and proposes a safe command (the maintenance and membership requests
// of maintenance-desk.ts and membership-requests.ts). The `raw-proposal` fault is a client that
// sends an ElectLeader naming the first voter that does not lead, in the next term. The API
// refuses it and records `api-request` `{ command, term, leader, accepted: false }`.
//
// The broken API (`refuseRawCommands` off) hands it to the leader, which commits it with a
// majority as it would any entry: the named node becomes the committed leader of a term no voter
// elected it in, and the committed state records it as a `leader-change` with the votes that
// elected it, none (one-leader-per-term judges those). Every voter the leader reaches learns the
// new term and epoch, so a later election is in a newer term still.

import { applyCoordination } from '../../model/coordination-epoch.ts';
import type { CoordinatedRole } from '../../model/coordination-epoch.ts';
import { incarnationId } from '../../model/node-incarnation.ts';
import type { OperatorHost } from './operator-host.ts';

export function rawProposal(host: OperatorHost, role: CoordinatedRole): void {
  const sim = host.sim();
  const cluster = host.cluster();
  const voters = [...cluster.voters].sort((a, b) => (a.name < b.name ? -1 : 1));
  const named = voters.find((voter) => voter.role !== 'leader') ?? voters[0];
  if (named === undefined) return;
  const term = cluster.committed.term + 1;
  const request = { command: 'ElectLeader', term, leader: named.name };
  const leader = sim.policy.refuseRawCommands ? null : host.leaderWithGuard();
  const links = host.links();
  const reached = leader === null ? [] : voters.filter((voter) => voter === leader || links.connected(leader.name, voter.name));
  if (leader === null || reached.length < cluster.majority) {
    sim.fault('api-request', { ...request, accepted: false });
    return;
  }
  const next = applyCoordination(cluster.committed, { kind: 'ElectLeader', term, leader: named.incarnation, roles: [role] });
  if (next.outcome.kind !== 'LeaderElected') {
    sim.fault('api-request', { ...request, accepted: false });
    return;
  }
  cluster.committed = next.state;
  for (const voter of reached) {
    cluster.learnTerm(voter, term);
    voter.knownEpoch = next.state.epoch;
  }
  sim.fault('api-request', { ...request, accepted: true });
  sim.fault('leader-change', { term, epoch: next.state.epoch, leader: incarnationId(named.incarnation), voters: voters.length, votes: [] });
  host.quorumChanged();
}
