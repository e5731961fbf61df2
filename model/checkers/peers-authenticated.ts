// peers-authenticated (seed 001 §56–§59 node-to-node mTLS and node identity, §214–§217 certificate
// rotation, revocation and mutual authentication; §338 "Node-to-node traffic uses mTLS", §339
// "node mTLS/revocation complete"): no voter acts on a peer that did not authenticate as the node
// it claims to be. The checker keeps its own book of the certificates the cluster issued and
// revoked (`certificate` records) and judges each `impostor` attempt by it: a voter that accepted
// a peer presenting no certificate, one never issued, one bound to another node, or one revoked
// before the attempt, broke the rule.

import type { FaultEvent, History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'peers-authenticated';

interface Certificate {
  readonly node: string;
  readonly serial: number;
}

const isCertificate = (value: unknown): value is Certificate =>
  typeof value === 'object' && value !== null && typeof (value as Certificate).node === 'string' && typeof (value as Certificate).serial === 'number';

/** Why `certificate` does not authenticate a peer claiming `claimed`, by the book so far; null when it does. */
function refusal(book: { issued: ReadonlyMap<number, string>; revoked: ReadonlyMap<number, number> }, claimed: string, certificate: unknown): string | null {
  if (!isCertificate(certificate)) return 'no certificate';
  const owner = book.issued.get(certificate.serial);
  if (owner === undefined || owner !== certificate.node) return `certificate ${certificate.serial}, which the cluster never issued to ${certificate.node}`;
  if (certificate.node !== claimed) return `${certificate.node}'s certificate ${certificate.serial}`;
  const revokedAt = book.revoked.get(certificate.serial);
  if (revokedAt !== undefined) return `certificate ${certificate.serial}, revoked at #${revokedAt}`;
  return null;
}

export function peersAuthenticated(history: History): Verdict {
  const issued = new Map<number, string>();
  const revoked = new Map<number, number>();
  const violations: Violation[] = [];
  for (const event of history) {
    if (event.type !== 'fault') continue;
    const fault = event as FaultEvent;
    const value = fault.value;
    if (fault.f === 'certificate') {
      if (value.action === 'issued') issued.set(value.serial as number, value.node as string);
      if (value.action === 'revoked') revoked.set(value.serial as number, fault.index);
      continue;
    }
    if (fault.f !== 'impostor') continue;
    const accepted = (value.accepted as ReadonlyArray<string> | undefined) ?? [];
    if (accepted.length === 0) continue;
    const claimed = value.claims as string;
    const why = refusal({ issued, revoked }, claimed, value.certificate);
    if (why === null) continue;
    violations.push(violation(INVARIANT, `${accepted.join(', ')} acted on a RequestVote for term ${String(value.term)} from a peer claiming ${claimed} that presented ${why} (#${fault.index})`, [fault.index]));
  }
  return verdictOf(violations);
}
