// seed 000 §291–§296: deadlock order, saga compensation, semaphores, fairness, tenant isolation and federation authority.

import { describe, expect, test } from 'vitest';
import { AGING_STEP_MS } from '../../model/constants.ts';
import { canonicalOrder, planCompensation } from '../../model/multi-resource.ts';
import { ModelDriver, scope } from './model-driver.ts';

describe('seed 000 test list: resources', () => {
  test('000 §291 deadlock order: canonical order prevents a cycle', () => {
    const env = scope('staging');
    const dev = scope('pixel-8-01', 'Device');
    expect(canonicalOrder([env, dev])).toEqual(canonicalOrder([dev, env]));
    const m = new ModelDriver();
    // Two callers ask in opposite orders; both are served in one order, so one wins whole.
    const first = m.expect({ kind: 'AcquireAll', scopes: [env, dev], holder: 'A', ttlMs: 1_000 }, 'AcquiredAll');
    expect(first.leases.map((l) => l.scope)).toEqual(canonicalOrder([env, dev]));
    const second = m.expect({ kind: 'AcquireAll', scopes: [dev, env], holder: 'B', ttlMs: 1_000 }, 'Busy');
    expect(second.scope).toBe(canonicalOrder([env, dev])[0]);
    expect(m.view().leases.every((l) => l.holder === 'A')).toBe(true);
  });

  test('000 §292 multi-resource failure: partial reservations compensated', () => {
    const m = new ModelDriver();
    const busy = scope('pixel-8-02', 'Device');
    const free = scope('staging');
    m.expect({ kind: 'Acquire', scope: busy, holder: 'other', ttlMs: 1_000 }, 'Acquired');
    m.expect({ kind: 'AcquireAll', scopes: [free, busy], holder: 'A', ttlMs: 1_000 }, 'Busy');
    expect(m.view().leases.map((l) => l.scope)).toEqual([busy]);
    // Across systems (no atomic acquire): a saga compensates in reverse order, with expiry.
    const plan = planCompensation(
      [
        { system: 'device-lab', reservationId: 'r1', scope: 'dev:1', expiresAt: 5_000 },
        { system: 'accounts', reservationId: 'r2', scope: 'acct:1', expiresAt: 1_500 },
      ],
      { system: 'env', scope: 'env:1', reason: 'busy' },
      2_000,
    );
    expect(plan).toEqual([
      { action: 'lapsed', system: 'accounts', reservationId: 'r2', deadline: 1_500 },
      { action: 'release', system: 'device-lab', reservationId: 'r1', deadline: 5_000 },
    ]);
  });

  test('000 §293 semaphore: capacity never exceeded', () => {
    const m = new ModelDriver();
    const slots = scope('signing', 'Custom');
    m.expect({ kind: 'DefineCapacity', scope: slots, capacity: 2 }, 'Defined');
    m.expect({ kind: 'AcquirePermit', scope: slots, permitId: 'p1', holder: 'A', units: 1, ttlMs: 1_000 }, 'Granted');
    m.expect({ kind: 'Reserve', scope: slots, reservationId: 'r1', owner: 'B', units: 1, ttlMs: 1_000 }, 'Reserved');
    expect(m.run({ kind: 'AcquirePermit', scope: slots, permitId: 'p2', holder: 'C', units: 1, ttlMs: 1_000 })).toEqual({ kind: 'Busy', inUse: 2, capacity: 2 });
    expect(m.run({ kind: 'Reserve', scope: slots, reservationId: 'r2', owner: 'C', units: 1, ttlMs: 1_000 })).toEqual({ kind: 'Overbooked', inUse: 2, capacity: 2 });
    m.expect({ kind: 'ReleasePermit', scope: slots, permitId: 'p1' }, 'PermitReleased');
    m.expect({ kind: 'AcquirePermit', scope: slots, permitId: 'p2', holder: 'C', units: 1, ttlMs: 1_000 }, 'Granted');
  });

  test('000 §294 fairness: aging prevents waiter starvation', () => {
    const m = new ModelDriver();
    const env = scope('prod');
    m.expect({ kind: 'Enqueue', scope: env, waiterId: 'low', holder: 'L', priority: 0 }, 'Enqueued');
    // Every round a fresh high-priority waiter arrives and the head takes and returns the lease.
    // Without aging 'low' would never lead; with it, it leads within priority/aging rounds.
    const served: string[] = [];
    for (let round = 0; round < 10 && !served.includes('low'); round++) {
      m.expect({ kind: 'Enqueue', scope: env, waiterId: `high-${round}`, holder: 'H', priority: 3 }, 'Enqueued');
      const head = m.view().waiters.map((w) => w.waiterId).find((id) => m.run({ kind: 'Acquire', scope: env, holder: id, ttlMs: 100, waiterId: id }).kind === 'Acquired');
      expect(head).toBeDefined();
      served.push(head!);
      const lease = m.view().leases[0]!;
      m.expect({ kind: 'Release', scope: env, holder: lease.holder, token: lease.token }, 'Released');
      m.advance(AGING_STEP_MS);
    }
    expect(served.indexOf('low')).toBeGreaterThan(0);
    expect(served.indexOf('low')).toBeLessThanOrEqual(4);
    // A caller that did not queue cannot jump the queue.
    m.expect({ kind: 'Enqueue', scope: env, waiterId: 'late', holder: 'Z', priority: 0 }, 'Enqueued');
    expect(m.run({ kind: 'Acquire', scope: env, holder: 'jumper', ttlMs: 100 })).toEqual({ kind: 'Rejected', reason: 'not-head-of-queue' });
  });

  test('000 §295 tenant isolation: cannot acquire another tenant scope', () => {
    const mine = scope('prod', 'DeploymentEnvironment', 'acme');
    const theirs = scope('prod', 'DeploymentEnvironment', 'globex');
    expect(mine).not.toBe(theirs);
    const m = new ModelDriver();
    m.expect({ kind: 'Acquire', scope: theirs, holder: 'globex-deploy', ttlMs: 1_000 }, 'Acquired');
    // acme's scope of the same name is a different scope: acme neither sees nor blocks globex.
    m.expect({ kind: 'Acquire', scope: mine, holder: 'acme-deploy', ttlMs: 1_000 }, 'Acquired');
    expect(m.view().leases).toHaveLength(2);
  });

  test('000 §296 federation: an old site authority cannot mutate after failover', () => {
    const m = new ModelDriver();
    const env = scope('payments-prod', 'InfrastructureEnvironment');
    const siteA = { role: 'site-authority', epoch: 1 };
    const a = m.expect({ kind: 'Acquire', scope: env, holder: 'site-a', ttlMs: 60_000, guard: siteA }, 'Acquired');
    m.expect({ kind: 'Mutate', scope: env, aggregate: 'state', holder: 'site-a', token: a.lease.token, expectedVersion: 0, guard: siteA }, 'Accepted');
    // Failover: site B becomes authority with epoch 2.
    m.expect({ kind: 'AdvanceRoleEpoch', role: 'site-authority', epoch: 2 }, 'RoleEpochAdvanced');
    expect(m.run({ kind: 'Mutate', scope: env, aggregate: 'state', holder: 'site-a', token: a.lease.token, expectedVersion: 1, guard: siteA })).toEqual({ kind: 'Fenced', role: 'site-authority', currentEpoch: 2 });
    expect(m.run({ kind: 'Acquire', scope: scope('other', 'InfrastructureEnvironment'), holder: 'site-a', ttlMs: 1_000, guard: siteA })).toEqual({ kind: 'Fenced', role: 'site-authority', currentEpoch: 2 });
    expect(m.view().aggregates).toEqual([{ scope: env, aggregate: 'state', version: 1, lastToken: a.lease.token }]);
  });
});
