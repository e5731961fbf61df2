// seed 001 §262, §296–§305, §12–§13: a role guard comes only from a committed assignment to one incarnation, and a deposed leader's guarded lease creation is Fenced by the store.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { applyCoordination, initialCoordination, type CoordinationState } from '../../model/coordination-epoch.ts';
import { firstIncarnation, restarted } from '../../model/node-incarnation.ts';
import { issueRoleGuard, isRoleGuard, wireGuard, type RoleGuard } from '../../model/role-guard.ts';

function elect(state: CoordinationState, term: number, node: ReturnType<typeof firstIncarnation>): CoordinationState {
  const next = applyCoordination(state, { kind: 'ElectLeader', term, leader: node, roles: ['scheduler'] });
  expect(next.outcome.kind).toBe('LeaderElected');
  return next.state;
}

function mint(state: CoordinationState, node: ReturnType<typeof firstIncarnation>): RoleGuard {
  const guard = issueRoleGuard(state, 'scheduler', node);
  if (!isRoleGuard(guard)) throw new Error(`no guard: ${guard.kind}`);
  return guard;
}

describe('role guard', () => {
  const c1 = firstIncarnation('c1');
  const c2 = firstIncarnation('c2');

  it('is issued only to the incarnation the committed assignment names', () => {
    const state = elect(initialCoordination(['c1', 'c2', 'c3']), 1, c1);
    expect(mint(state, c1)).toMatchObject({ role: 'scheduler', epoch: 1, holder: 'c1#1' });
    expect(issueRoleGuard(state, 'scheduler', c2)).toEqual({ kind: 'NotOwner', role: 'scheduler', owner: 'c1#1' });
    expect(issueRoleGuard(state, 'release-coordinator', c1)).toEqual({ kind: 'NotAssigned', role: 'release-coordinator' });
    // A restarted process of the same node inherits nothing (§13).
    expect(issueRoleGuard(state, 'scheduler', restarted(c1))).toMatchObject({ kind: 'NotOwner' });
  });

  it('cannot be forged: a look-alike object is not accepted where a guard is sent', () => {
    const forged = { role: 'scheduler', epoch: 99, holder: 'c1#1' } as unknown as RoleGuard;
    expect(() => wireGuard(forged)).toThrow(/only an issued guard/);
  });

  it('a stale term changes nothing and every election raises the epoch', () => {
    const once = elect(initialCoordination(['c1', 'c2', 'c3']), 3, c1);
    expect(applyCoordination(once, { kind: 'ElectLeader', term: 3, leader: c2, roles: ['scheduler'] }).outcome).toEqual({ kind: 'StaleTerm', currentTerm: 3 });
    expect(elect(once, 4, c2).epoch).toBe(2);
  });

  it("fences the deposed leader's lease creation once the new leader's epoch reached the store (§93–§96)", async () => {
    let now = 0;
    const store = await createMemoryStore({ time: { now: () => now } });
    const first = elect(initialCoordination(['c1', 'c2', 'c3']), 1, c1);
    const old = mint(first, c1);
    expect(await store.execute({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: old.epoch })).toMatchObject({ kind: 'RoleEpochAdvanced' });
    expect(await store.execute({ kind: 'Acquire', scope: 'job-1', holder: 'c1#1', ttlMs: 1_000, guard: wireGuard(old) })).toMatchObject({ kind: 'Acquired' });
    const second = elect(first, 2, c2);
    const current = mint(second, c2);
    expect(await store.execute({ kind: 'AdvanceRoleEpoch', role: 'scheduler', epoch: current.epoch })).toMatchObject({ kind: 'RoleEpochAdvanced', epoch: 2 });
    now = 5_000;
    expect(await store.execute({ kind: 'Acquire', scope: 'job-2', holder: 'c1#1', ttlMs: 1_000, guard: wireGuard(old) })).toEqual({ kind: 'Fenced', role: 'scheduler', currentEpoch: 2 });
    expect(await store.execute({ kind: 'Acquire', scope: 'job-2', holder: 'c2#1', ttlMs: 1_000, guard: wireGuard(current) })).toMatchObject({ kind: 'Acquired' });
    await store.close();
  });
});
