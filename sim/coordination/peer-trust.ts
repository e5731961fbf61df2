// Node identity and mutual authentication between daemons (seed 001 §56–§59, §214–§217). Each node
// of the cluster holds a certificate that binds its ClusterNodeId (§57–§58); removing a node
// revokes its certificate (§215), and rotating one revokes the old (§214). A daemon acts on a
// message from a peer only when the peer presents a certificate the cluster issued, bound to the
// node it claims to be, and not revoked (§217, "Mutual Authentication: Mandatory"); membership is
// checked on top (§216). Transport encryption is not simulated: what is modelled is the decision
// each daemon makes about who is talking to it.
//
// The `impostor` fault (faults/impostor.ts) tests that decision: a process that claims a
// voter's name asks every running voter for its vote in a newer term. A voter that accepts adopts
// the term (a leader steps down) and grants the vote, as it would for the real node. Each attempt
// is recorded as `impostor` `{ claims, credential, certificate, term, accepted, refused }`, and
// every certificate issued or revoked as `certificate` `{ action, node, serial, reason? }`, which
// `peers-authenticated` (model/checkers/peers-authenticated.ts) judges on its own. Certificates
// are recorded only in runs that have impostors, so other runs keep their histories.

import type { Sim } from '../engine.ts';
import type { Cluster } from './cluster.ts';

export interface Certificate {
  readonly node: string;
  readonly serial: number;
}

export type ImpostorCredential = 'none' | 'forged' | 'other-node' | 'revoked';

/** What a daemon checks of a peer's certificate (each on in the correct daemon; a policy mutant turns one off). */
export interface TrustRules {
  /** A peer must present a certificate the cluster issued; off: a claimed name is believed. */
  readonly authenticatePeers: boolean;
  /** The certificate must be bound to the node the peer claims to be. */
  readonly certificateBindsNode: boolean;
  /** A revoked certificate authenticates no one. */
  readonly checkRevocation: boolean;
}

type Recorder = (f: 'impostor' | 'certificate', value: Readonly<Record<string, unknown>>) => void;

export class PeerTrust {
  /** The trust of a run: it records certificates only when the plan has impostors. */
  static forPlan(sim: Sim, rules: TrustRules): PeerTrust {
    const recorded = sim.plan.steps.some((step) => step.kind === 'fault' && step.fault.f === 'impostor');
    return new PeerTrust(rules, (f, value) => {
      if (recorded) sim.fault(f, value);
    });
  }

  private nextSerial = 1;
  private readonly current = new Map<string, Certificate>();
  private readonly issued = new Map<number, Certificate>();
  private readonly revoked = new Set<number>();

  constructor(
    private readonly rules: TrustRules,
    /** Writes a history record, or nothing in a run without impostors. */
    private readonly record: Recorder,
  ) {}

  /** Issues `node` a certificate (at bootstrap, or as it joins). */
  enroll(node: string): Certificate {
    const certificate: Certificate = { node, serial: this.nextSerial++ };
    this.current.set(node, certificate);
    this.issued.set(certificate.serial, certificate);
    this.record('certificate', { action: 'issued', node, serial: certificate.serial });
    return certificate;
  }

  /** Revokes the node's current certificate; a removed node gets no new one (§215). */
  revoke(node: string, reason: 'removed' | 'rotated'): Certificate | null {
    const certificate = this.current.get(node);
    if (certificate === undefined) return null;
    this.revoked.add(certificate.serial);
    this.current.delete(node);
    this.record('certificate', { action: 'revoked', node, serial: certificate.serial, reason });
    return certificate;
  }

  /** Whether a daemon acts on a peer that claims to be `claimed` and presents `certificate`. */
  accepts(claimed: string, certificate: Certificate | null): boolean {
    if (!this.rules.authenticatePeers) return true;
    if (certificate === null) return false;
    const issued = this.issued.get(certificate.serial);
    if (issued === undefined || issued.node !== certificate.node) return false;
    if (this.rules.certificateBindsNode && certificate.node !== claimed) return false;
    return !(this.rules.checkRevocation && this.revoked.has(certificate.serial));
  }

  /**
   * One impostor attempt: it claims the first voter (by name) that does not lead, presents
   * `credential`, and asks every other running voter for its vote in a term above any voter's.
   */
  impostor(cluster: Cluster, credential: ImpostorCredential, now: number, running: (node: string) => boolean): void {
    const voters = [...cluster.voters].sort((a, b) => (a.name < b.name ? -1 : 1));
    const claimed = voters.find((voter) => voter.role !== 'leader');
    if (claimed === undefined) return;
    const certificate = this.credentialOf(credential, claimed.name, voters.map((voter) => voter.name));
    const term = Math.max(...cluster.nodes.map((node) => node.term)) + 1;
    const accepted: string[] = [];
    const refused: string[] = [];
    for (const voter of voters) {
      if (voter === claimed || !running(voter.name)) continue;
      if (!this.accepts(claimed.name, certificate) || !cluster.isVoter(claimed)) {
        refused.push(voter.name);
        continue;
      }
      // The RequestVote is believed: a newer term, and the vote, as the real node would get them.
      cluster.learnTerm(voter, term);
      if (voter.votedFor === null) voter.votedFor = claimed.name;
      voter.lastHeardMs = now;
      accepted.push(voter.name);
    }
    this.record('impostor', { claims: claimed.name, credential, certificate, term, accepted, refused });
  }

  /** What the impostor presents as `claimed`. */
  private credentialOf(credential: ImpostorCredential, claimed: string, voters: ReadonlyArray<string>): Certificate | null {
    switch (credential) {
      case 'none':
        return null;
      case 'forged':
        return { node: claimed, serial: 0 };
      case 'other-node': {
        const other = voters.find((name) => name !== claimed && this.current.has(name));
        return other === undefined ? null : this.current.get(other)!;
      }
      case 'revoked': {
        // The claimed node's certificate leaked; the operator rotated it, and the impostor has the old one.
        const leaked = this.revoke(claimed, 'rotated');
        this.enroll(claimed);
        return leaked;
      }
    }
  }
}
