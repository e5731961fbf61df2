// The policy mutants of node identity and deployment (seed 001 §56–§59, §202–§204, §214–§217):
// what a daemon believes about who talks to it, and about who leads. One entry a mutant, as in coordination.ts (policy-mutant.ts
// says how to write one).

import { policyMutants } from './policy-mutant.ts';

export const TRUST_MUTANTS = policyMutants({
  // Seed 001 §56 ("Node-to-Node mTLS: Mandatory"), §217 ("Mutual Authentication: Mandatory"),
  // §216. A daemon believes the name a peer claims: a process with no certificate that says it is
  // a voter gets the voters' votes in its newer term, and the real leader steps down.
  'peers-unauthenticated': {
    bug: 'a daemon believes the node name a peer claims, without a certificate the cluster issued',
    source: '001 §56, §216–§217, §338 "Node-to-node traffic uses mTLS"',
    rule: 'peers-authenticated: no voter acts on a peer that did not authenticate as the node it claims to be',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'authenticatePeers',
  },
  // Seed 001 §57–§58 ("Certificate binds ClusterNodeId"), §207 (node identity is not a name the
  // platform hands out). A daemon accepts any certificate the cluster issued, whoever it was
  // issued to: one node's stolen certificate lets its holder speak as any other.
  'certificate-not-bound-to-node': {
    bug: 'a daemon accepts a valid certificate of one node from a peer claiming to be another',
    source: '001 §57–§58, §207, §216',
    rule: 'peers-authenticated: the certificate must bind the node the peer claims to be',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'certificateBindsNode',
  },
  // Seed 001 §214 ("Certificate Rotation"), §215 ("Node Revocation: Remove membership + revoke
  // cert"), §339 "node mTLS/revocation complete". A daemon checks that a certificate was issued and
  // to whom, but not whether it was revoked: after a leaked certificate is rotated, the old one
  // still speaks for its node.
  'revocation-ignored': {
    bug: 'a daemon accepts a certificate the cluster revoked, so rotating a leaked one changes nothing',
    source: '001 §214–§215, §339 "node mTLS/revocation complete"',
    rule: 'peers-authenticated: a revoked certificate authenticates no one',
    invariants: ['peers-authenticated'],
    scenarios: ['node-impostor'],
    flips: 'checkRevocation',
  },
  // Seed 001 §202–§204 ("Kubernetes leader election should not replace internal coordination
  // semantics"; "could be deployment optimization, not core authority"), §338 "Kubernetes does not
  // become hidden coordination authority". A daemon the platform's leader election names acts as
  // the role's owner under the epoch it knows, beside the leader that won that epoch.
  'orchestrator-lease-as-authority': {
    bug: 'a daemon named leader by the platform’s own leader election takes the role under the current epoch',
    source: '001 §202–§204, §338 "Kubernetes does not become hidden coordination authority"',
    rule: 'fenced-stale-leader: a guard is used only by the incarnation that won its epoch',
    invariants: ['fenced-stale-leader'],
    scenarios: ['platform-leader-election'],
    flips: 'rolesFromCoordinationOnly',
  },
});
