// seed 001 §283–§285, §261: the coordination checkers find a second leader in a term, a stale leader's accepted lease, a split promotion and a coordination write without quorum, and pass the correct shapes.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../model/commands.ts';
import { fencedStaleLeader } from '../../model/checkers/fenced-stale-leader.ts';
import { noSplitPromotion } from '../../model/checkers/no-split-promotion.ts';
import { oneLeaderPerTerm } from '../../model/checkers/one-leader-per-term.ts';
import { quorumLossDegraded } from '../../model/checkers/quorum-loss-degraded.ts';
import { HistoryBuilder, lease } from '../model/checkers/history-builder.ts';

const SCOPE = 'job-1';

function elected(h: HistoryBuilder, term: number, epoch: number, leader: string, votes: ReadonlyArray<string>): number {
  return h.fault('leader-change', { term, epoch, leader, voters: 3, votes: [...votes] });
}

function advance(h: HistoryBuilder, process: string, epoch: number): void {
  h.op(process, { kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch }, { kind: 'RoleEpochAdvanced', role: 'scheduler', epoch });
}

function guardedAcquire(h: HistoryBuilder, process: string, holder: string, epoch: number | null, token: number): void {
  const base = { kind: 'Acquire' as const, scope: SCOPE, holder, ttlMs: 1_000 };
  const command: Command = epoch === null ? base : { ...base, guard: { role: 'scheduler', epoch } };
  h.op(process, command, { kind: 'Acquired', lease: lease(SCOPE, holder, token) });
}

function promote(h: HistoryBuilder, process: string, epoch: number, token: number): void {
  const command: Command = { kind: 'Mutate', scope: 'channel', aggregate: 'stable', holder: process.split(':')[0]!, token, expectedVersion: 0, guard: { role: 'release-coordinator', epoch } };
  h.op(process, command, { kind: 'Accepted', version: 1, token });
}

describe('one-leader-per-term', () => {
  it('passes majority-elected leaders with rising terms and epochs', () => {
    const h = new HistoryBuilder();
    elected(h, 1, 1, 'c1#1', ['c1', 'c2']);
    elected(h, 3, 2, 'c2#1', ['c2', 'c3']);
    expect(oneLeaderPerTerm(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds two leaders in one term, a minority win and an epoch that does not rise', () => {
    const h = new HistoryBuilder();
    elected(h, 2, 1, 'c1#1', ['c1', 'c2']);
    elected(h, 2, 1, 'c3#1', ['c3']);
    const messages = oneLeaderPerTerm(h.build()).violations.map((v) => v.message);
    expect(messages.some((m) => m.includes('term 2 has two leaders'))).toBe(true);
    expect(messages.some((m) => m.includes('1 of 3 votes'))).toBe(true);
    expect(messages.some((m) => m.includes('does not rise above 1'))).toBe(true);
  });

  it('judges epochs in term order: a paused leader that applies its own entry late is no violation', () => {
    // raft-failover seed 7000188: c2 won term 4 (epoch 2) and was paused; c3 won term 5 (epoch 3);
    // c2 resumed and applied its own committed entry after c3 took its role.
    const h = new HistoryBuilder();
    elected(h, 1, 1, 'c1#1', ['c1', 'c3']);
    elected(h, 5, 3, 'c3#1', ['c1', 'c3']);
    elected(h, 4, 2, 'c2#1', ['c1', 'c2']);
    expect(oneLeaderPerTerm(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds a later term whose epoch is not above an earlier term\'s, whatever the history order', () => {
    const h = new HistoryBuilder();
    elected(h, 5, 2, 'c3#1', ['c1', 'c3']);
    elected(h, 4, 2, 'c2#1', ['c1', 'c2']);
    const messages = oneLeaderPerTerm(h.build()).violations.map((v) => v.message);
    expect(messages).toEqual([expect.stringMatching(/epoch 2 of c3#1 \(term 5, #\d+\) does not rise above 2 of c2#1 \(term 4/)]);
  });
});

describe('fenced-stale-leader', () => {
  /** c1#1 led epoch 1 and c2#1 won epoch 2; both epochs have reached the store. */
  function deposedAfterNewEpoch(): HistoryBuilder {
    const h = new HistoryBuilder();
    elected(h, 1, 1, 'c1#1', ['c1', 'c2']);
    advance(h, 'c1#1:lead1', 1);
    elected(h, 2, 2, 'c2#1', ['c2', 'c3']);
    advance(h, 'c2#1:lead2', 2);
    return h;
  }

  it('passes a deposed leader whose lease creation came before the new epoch reached the store', () => {
    const h = new HistoryBuilder();
    elected(h, 1, 1, 'c1#1', ['c1', 'c2']);
    advance(h, 'c1#1:lead1', 1);
    elected(h, 2, 2, 'c2#1', ['c2', 'c3']);
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    advance(h, 'c2#1:lead2', 2);
    guardedAcquire(h, 'c2#1:lead2', 'c2#1', 2, 2);
    expect(fencedStaleLeader(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds a lease created under an epoch older than the one the store has seen', () => {
    const h = deposedAfterNewEpoch();
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    const verdict = fencedStaleLeader(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.message).toContain('under scheduler epoch 1');
  });

  it('finds an unguarded lease from a node that does not own the established epoch, and a guard used by another incarnation', () => {
    const h = deposedAfterNewEpoch();
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', null, 1);
    guardedAcquire(h, 'c1#2:lead9', 'c1#2', 2, 2);
    const messages = fencedStaleLeader(h.build()).violations.map((v) => v.message);
    expect(messages.some((m) => m.includes('without a guard'))).toBe(true);
    expect(messages.some((m) => m.includes('which c2#1 won'))).toBe(true);
  });
});

describe('no-split-promotion', () => {
  it('passes promotions whose coordinator epochs rise', () => {
    const h = new HistoryBuilder();
    promote(h, 'c1#1:a1', 1, 1);
    promote(h, 'c2#1:a2', 2, 2);
    expect(noSplitPromotion(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds a promotion under an older coordinator epoch after a newer one landed', () => {
    const h = new HistoryBuilder();
    promote(h, 'c2#1:a2', 2, 2);
    promote(h, 'c1#1:a1', 1, 1);
    const verdict = noSplitPromotion(h.build());
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]?.message).toContain('epoch 1');
  });
});

describe('quorum-loss-degraded', () => {
  it('passes scheduling within the step-down bound and after quorum returns', () => {
    const h = new HistoryBuilder();
    h.at(100).fault('quorum-loss', { voters: 3, reachable: 1, stepDownBoundMs: 500 });
    h.at(400);
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    h.at(2_000).fault('quorum-restored', { voters: 3, reachable: 3 });
    elected(h, 2, 2, 'c2#1', ['c2', 'c3']);
    guardedAcquire(h, 'c2#1:lead2', 'c2#1', 2, 2);
    expect(quorumLossDegraded(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds an election and new scheduling while quorum is lost', () => {
    const h = new HistoryBuilder();
    h.at(100).fault('quorum-loss', { voters: 3, reachable: 1, stepDownBoundMs: 500 });
    elected(h, 2, 2, 'c2#1', ['c2']);
    h.at(900);
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    const messages = quorumLossDegraded(h.build()).violations.map((v) => v.message);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('coordination write without quorum');
    expect(messages[1]).toContain('800 ms into a quorum loss');
  });
});
