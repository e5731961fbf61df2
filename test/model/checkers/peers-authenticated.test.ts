// peers-authenticated (001 §56–§59, §214–§217): a voter that acts on a peer presenting no
// certificate, a forged one, another node's or a revoked one is caught; refusals and a peer that
// authenticates as itself pass.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../model/history.ts';
import { peersAuthenticated } from '../../../model/checkers/peers-authenticated.ts';

const fault = (index: number, f: string, value: Record<string, unknown>): HistoryEvent =>
  ({ index, time: index, process: 'nemesis', type: 'fault', f, value }) as HistoryEvent;

const ISSUED = [
  fault(0, 'certificate', { action: 'issued', node: 'c1', serial: 1 }),
  fault(1, 'certificate', { action: 'issued', node: 'c2', serial: 2 }),
];

function attempt(certificate: unknown, accepted: string[], extra: HistoryEvent[] = []): HistoryEvent[] {
  return [...ISSUED, ...extra, fault(2 + extra.length, 'impostor', { claims: 'c1', certificate, term: 5, accepted, refused: accepted.length === 0 ? ['c2', 'c3'] : [] })];
}

describe('peers-authenticated', () => {
  it.each([
    ['no certificate', null, 'no certificate'],
    ['a forged certificate', { node: 'c1', serial: 0 }, 'never issued'],
    ['another node’s certificate', { node: 'c2', serial: 2 }, "c2's certificate 2"],
  ])('fails a voter that acts on a peer presenting %s', (_name, certificate, words) => {
    const verdict = peersAuthenticated(attempt(certificate, ['c2']));
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toContain(words);
  });

  it('fails a voter that acts on a certificate revoked before the attempt', () => {
    const rotation = [fault(2, 'certificate', { action: 'revoked', node: 'c1', serial: 1, reason: 'rotated' }), fault(3, 'certificate', { action: 'issued', node: 'c1', serial: 3 })];
    const verdict = peersAuthenticated(attempt({ node: 'c1', serial: 1 }, ['c3'], rotation));
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toContain('revoked at #2');
  });

  it('passes refusals, and a peer whose certificate authenticates it as the node it claims', () => {
    expect(peersAuthenticated(attempt(null, [])).valid).toBe(true);
    expect(peersAuthenticated(attempt({ node: 'c1', serial: 1 }, ['c2'])).valid).toBe(true);
  });
});
