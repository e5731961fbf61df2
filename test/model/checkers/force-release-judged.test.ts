// seed 000 §202 and seed 002 (PR #53, 022d1f8, ebe1ab8, b1a49c3): a force release removes no lease granted or
// renewed within ⅔ of its TTL before it — such a lease is live by any judgement made from observation.
import { describe, expect, it } from 'vitest';
import type { ForceReleaseCommand } from '../../../model/commands.ts';
import type { Tombstone } from '../../../model/outcomes.ts';
import { forceReleaseJudged } from '../../../model/checkers/force-release-judged.ts';
import { HistoryBuilder, acquired } from './history-builder.ts';

const TTL = 10_000;
const command: ForceReleaseCommand = { kind: 'ForceRelease', scope: 'env', expectedToken: 7, expectedExpiresAt: TTL, actor: 'ops', reason: 'holder stalled', privileged: true };
const tombstone: Tombstone = { scope: 'env', holder: 'A', token: 7, endedAt: 3, cause: 'force-released', actor: 'ops', reason: 'holder stalled' };

describe('force-release-judged', () => {
  it('fails a force release of a lease renewed within two thirds of its TTL before the force', () => {
    const h = new HistoryBuilder();
    acquired(h, 'c1#1', 'env', 'A', 7);
    h.at(TTL / 2);
    const renewal = h.op('c1#1:hb1', { kind: 'Renew', scope: 'env', holder: 'A', expectedToken: 7, ttlMs: TTL }, { kind: 'Renewed', lease: { scope: 'env', holder: 'A', token: 7, acquiredAt: 0, expiresAt: TTL / 2 + TTL } });
    h.at(TTL);
    h.op('ops#1', command, { kind: 'ForceReleased', tombstone, nextToken: 9 });
    const verdict = forceReleaseJudged(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toMatch(/a live lease: Renewed of token 7 by c1#1:hb1 .* 5000 ms before the force/);
    expect(verdict.violations[0]!.events).toContain(renewal[0]);
  });

  it('fails a force release of a fresh lease, and passes one whose last renewal is older than two thirds of its TTL', () => {
    const fresh = new HistoryBuilder();
    acquired(fresh, 'c1#1', 'env', 'A', 7);
    fresh.at(TTL / 3);
    fresh.op('ops#1', command, { kind: 'ForceReleased', tombstone, nextToken: 9 });
    expect(forceReleaseJudged(fresh.build()).violations[0]?.message).toMatch(/Acquired of token 7/);
    const stalled = new HistoryBuilder();
    acquired(stalled, 'c1#1', 'env', 'A', 7);
    stalled.at((TTL * 2) / 3 + 1);
    stalled.op('ops#1', command, { kind: 'ForceReleased', tombstone, nextToken: 9 });
    expect(forceReleaseJudged(stalled.build()).valid).toBe(true);
  });
});
