// seed 001 §15–§17, §59–§66, §157, §215, §227, §338: membership as committed configurations — a
// node joins as a learner, is promoted once caught up, a removed node never returns — and the two
// checkers that judge it, each shown failing on a history that breaks its rule.
import { describe, expect, it } from 'vitest';
import { findMutant } from '../../mutants/index.ts';
import { changeMembership, initialMembership, learnersOf, votersOf, type Membership } from '../../model/cluster-membership.ts';
import { applyCoordination, initialCoordination } from '../../model/coordination-epoch.ts';
import { learnerBeforeVoter } from '../../model/checkers/learner-before-voter.ts';
import { removedNodeNoAuthority } from '../../model/checkers/removed-node-no-authority.ts';
import { firstIncarnation } from '../../model/node-incarnation.ts';
import { runMutants } from '../../campaign/mutant-run.ts';
import { HistoryBuilder, lease } from '../model/checkers/history-builder.ts';

const changed = (m: Membership, ...args: Parameters<typeof changeMembership> extends [unknown, ...infer R] ? R : never): Membership => {
  const outcome = changeMembership(m, ...args);
  if (outcome.kind !== 'MembershipChanged') throw new Error(`expected a change, got ${outcome.reason}`);
  return outcome.membership;
};

describe('membership model', () => {
  it('learner first, promotion only when caught up, removal for good, never the last voter', () => {
    const start = initialMembership(['c1', 'c2', 'c3']);
    expect(changeMembership(start, { kind: 'promote', node: 'c4' })).toEqual({ kind: 'MembershipRejected', reason: 'not-a-learner' });
    const learner = changed(start, { kind: 'add-learner', node: 'c4' });
    expect([learner.version, votersOf(learner), learnersOf(learner)]).toEqual([1, ['c1', 'c2', 'c3'], ['c4']]);
    expect(changeMembership(learner, { kind: 'add-learner', node: 'c4' })).toEqual({ kind: 'MembershipRejected', reason: 'already-member' });
    expect(changeMembership(learner, { kind: 'promote', node: 'c4' }, false)).toEqual({ kind: 'MembershipRejected', reason: 'not-caught-up' });
    const voter = changed(learner, { kind: 'promote', node: 'c4' }, true);
    expect([voter.version, votersOf(voter)]).toEqual([2, ['c1', 'c2', 'c3', 'c4']]);
    const removed = changed(voter, { kind: 'remove', node: 'c2' });
    expect(votersOf(removed)).toEqual(['c1', 'c3', 'c4']);
    expect(changeMembership(removed, { kind: 'add-learner', node: 'c2' })).toEqual({ kind: 'MembershipRejected', reason: 'removed-for-good' });
    expect(changeMembership(initialMembership(['c1']), { kind: 'remove', node: 'c1' })).toEqual({ kind: 'MembershipRejected', reason: 'last-voter' });
  });

  it('only a voter is elected; removing the leader ends its leadership and its roles at the commit', () => {
    const c1 = firstIncarnation('c1');
    const c4 = firstIncarnation('c4');
    let state = initialCoordination(['c1', 'c2', 'c3']);
    expect(applyCoordination(state, { kind: 'ElectLeader', term: 1, leader: c4, roles: ['scheduler'] }).outcome).toEqual({ kind: 'NotAVoter', node: 'c4' });
    state = applyCoordination(state, { kind: 'ElectLeader', term: 1, leader: c1, roles: ['scheduler'] }).state;
    expect(applyCoordination(state, { kind: 'ChangeMembership', term: 0, change: { kind: 'remove', node: 'c1' }, caughtUp: true }).outcome).toEqual({ kind: 'MembershipRejected', reason: 'stale-term' });
    const removal = applyCoordination(state, { kind: 'ChangeMembership', term: 1, change: { kind: 'remove', node: 'c1' }, caughtUp: true });
    expect(removal.outcome).toMatchObject({ kind: 'MembershipChanged', leaderRemoved: true });
    expect(removal.state.leader).toBeNull();
    expect(removal.state.roles.size).toBe(0);
    expect(removal.state.epoch).toBe(state.epoch);
  });
});

function config(h: HistoryBuilder, version: number, change: string, node: string | null, voters: string[], learners: string[], by: string | null): number {
  return h.fault('membership-change', { version, change, node, voters, learners, by });
}

describe('learner-before-voter', () => {
  it('passes a learner-first join and elections counted on the configuration in force', () => {
    const h = new HistoryBuilder();
    config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
    h.fault('leader-change', { term: 1, epoch: 1, leader: 'c1#1', voters: 3, votes: ['c1', 'c2'] });
    config(h, 1, 'add-learner', 'c4', ['c1', 'c2', 'c3'], ['c4'], 'c1#1');
    h.fault('membership-change', { version: 2, change: 'promote', node: 'c4', voters: ['c1', 'c2', 'c3', 'c4'], learners: [], by: 'c1#1', learnerEpoch: 1, committedEpoch: 1 });
    h.fault('leader-change', { term: 2, epoch: 2, leader: 'c4#1', voters: 4, votes: ['c2', 'c3', 'c4'] });
    expect(learnerBeforeVoter(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds a direct voter join, a change without its audit record, and a learner counted as a vote', () => {
    const h = new HistoryBuilder();
    config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
    config(h, 1, 'add-learner', 'c4', ['c1', 'c2', 'c3', 'c4'], [], 'c1#1');
    config(h, 3, 'add-learner', 'c5', ['c1', 'c2', 'c3', 'c4'], ['c5'], null);
    h.fault('leader-change', { term: 2, epoch: 2, leader: 'c1#1', voters: 4, votes: ['c1', 'c5', 'c2'] });
    const messages = learnerBeforeVoter(h.build()).violations.map((v) => v.message);
    expect(messages.some((m) => m.includes('add-learner of c4') && m.includes('allows voters [c1, c2, c3], learners [c4]'))).toBe(true);
    expect(messages.some((m) => m.includes('version 3') && m.includes('without its audit record'))).toBe(true);
    expect(messages.some((m) => m.includes('names no leader'))).toBe(true);
    expect(messages.some((m) => m.includes('counted c5'))).toBe(true);
  });
});

describe('learner-before-voter: promotion once caught up (001 §62)', () => {
  it('passes a promotion of a learner that knew the committed epoch, and finds one that did not', () => {
    const promoted = (learnerEpoch: number) => {
      const h = new HistoryBuilder();
      config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
      config(h, 1, 'add-learner', 'c4', ['c1', 'c2', 'c3'], ['c4'], 'c1#1');
      h.fault('membership-change', { version: 2, change: 'promote', node: 'c4', voters: ['c1', 'c2', 'c3', 'c4'], learners: [], by: 'c1#1', learnerEpoch, committedEpoch: 2 });
      return learnerBeforeVoter(h.build());
    };
    expect(promoted(2)).toEqual({ valid: true, violations: [] });
    expect(promoted(1).violations.map((v) => v.message)).toEqual(['c4 was promoted (#2) knowing epoch 1 while epoch 2 was committed: a learner that had not caught up']);
    const h = new HistoryBuilder();
    config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
    config(h, 1, 'add-learner', 'c4', ['c1', 'c2', 'c3'], ['c4'], 'c1#1');
    config(h, 2, 'promote', 'c4', ['c1', 'c2', 'c3', 'c4'], [], 'c1#1');
    expect(learnerBeforeVoter(h.build()).violations.map((v) => v.message)).toEqual(['the promotion of c4 (#2) does not record what the learner had caught up to']);
  });
});

describe('removed-node-no-authority', () => {
  const guardedAcquire = (h: HistoryBuilder, process: string, holder: string, epoch: number, token: number): void => {
    h.op(process, { kind: 'Acquire', scope: 'job-1', holder, ttlMs: 1_000, guard: { role: 'scheduler', epoch } }, { kind: 'Acquired', lease: lease('job-1', holder, token) });
  };

  it('passes work the removed node invoked before its removal, and a new leader after it', () => {
    const h = new HistoryBuilder();
    config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    config(h, 1, 'remove', 'c1', ['c2', 'c3'], [], 'c1#1');
    h.fault('leader-change', { term: 2, epoch: 2, leader: 'c2#1', voters: 2, votes: ['c2', 'c3'] });
    guardedAcquire(h, 'c2#1:lead2', 'c2#1', 2, 2);
    expect(removedNodeNoAuthority(h.build())).toEqual({ valid: true, violations: [] });
  });

  it('finds a removed node that creates a lease under its guard, and one that leads again', () => {
    const h = new HistoryBuilder();
    config(h, 0, 'bootstrap', null, ['c1', 'c2', 'c3'], [], null);
    config(h, 1, 'remove', 'c1', ['c2', 'c3'], [], 'c1#1');
    guardedAcquire(h, 'c1#1:lead1', 'c1#1', 1, 1);
    h.fault('leader-change', { term: 3, epoch: 3, leader: 'c1#2', voters: 2, votes: ['c1', 'c2'] });
    const messages = removedNodeNoAuthority(h.build()).violations.map((v) => v.message);
    expect(messages.some((m) => m.includes('c1#1:lead1 created a lease on job-1'))).toBe(true);
    expect(messages.some((m) => m.includes('c1#2 led term 3'))).toBe(true);
  });
});

describe('removed-leader-keeps-role', () => {
  it('is caught on membership-change within a few seeds by removed-node-no-authority, shrunk to a short counterexample', async () => {
    const [report] = await runMutants({ mutants: [findMutant('removed-leader-keeps-role')!], candidates: 1 });
    expect(report!.caught).toBe(true);
    expect(report!.seedsTried).toBeLessThan(20);
    expect(report!.violations[0]?.invariant).toBe('removed-node-no-authority');
    expect(report!.shrunkOperations, report!.counterexample ?? '').toBeLessThanOrEqual(12);
    expect(report!.counterexample).toMatch(/membership-change[^\n]*change=remove[\s\S]*DispatchJob[^\n]*guard/);
  });
});
