// The translation of fences that are not integers (sim/fence-ids.ts): answers at any depth (an
// Inspect view's leases and intents, a lifecycle answer) get ids, an intent keeps the id of the
// grant it was planned under, and an unknown fencing kind is refused.

import { describe, expect, test } from 'vitest';
import type { Store } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { fenceIdsFor, withFenceIds } from '../../sim/fence-ids.ts';

/** A store without fences whose answers are given by `answer`. */
function fenceless(answer: (command: Command) => unknown, ended: ReadonlyArray<{ scope: string; holder: string }> = []): Store {
  return {
    name: 'fenceless',
    capabilities: { fencing: 'none' },
    execute: (async (command: Command) => answer(command)) as Store['execute'],
    lifecycle: async () => ({ ended: ended as never }),
    close: async () => {},
  };
}

const lease = (holder: string) => ({ scope: 's', holder, acquiredAt: 0, expiresAt: 100 });

describe('fences that are not integers', () => {
  test('without fences, a grant gets an id, and an Inspect view and a lifecycle answer name it', async () => {
    const inner = fenceless(
      (c) => (c.kind === 'Acquire' ? { kind: 'Acquired', lease: lease('c1#1') } : c.kind === 'Inspect' ? { kind: 'Snapshot', view: { leases: [lease('c1#1')], tokens: [{ scope: 's' }] } } : { kind: 'Released' }),
      [{ scope: 's', holder: 'c1#1' }],
    );
    const store = withFenceIds(inner, fenceIdsFor(inner)!);
    const granted = (await store.execute({ kind: 'Acquire', scope: 's', holder: 'c1#1', ttlMs: 100 })) as { lease: { token: number } };
    expect(granted.lease.token).toBe(1);
    const view = (await store.execute({ kind: 'Inspect' })) as unknown as { view: { leases: Array<{ token: number }>; tokens: Array<{ lastToken: number }> } };
    expect(view.view.leases[0]!.token).toBe(1);
    expect(view.view.tokens[0]!.lastToken).toBe(1);
    expect(await store.lifecycle!({ kind: 'crash', process: 'c1#1', node: 'c1' })).toEqual({ ended: [{ scope: 's', holder: 'c1#1', token: 1 }] });
  });

  test('without fences, an intent keeps the id of the grant it was planned under', async () => {
    const intent = { intentId: 'i1', scope: 's', operation: 'deploy', retrySafety: 'InspectBeforeRetry', state: 'Planned' };
    const inner = fenceless((c) => (c.kind === 'Acquire' ? { kind: 'Acquired', lease: lease(c.holder) } : c.kind === 'PlanIntent' ? { kind: 'Planned', intent } : { kind: 'Transitioned', intent: { ...intent, state: 'Applied' } }));
    const store = withFenceIds(inner, fenceIdsFor(inner)!);
    await store.execute({ kind: 'Acquire', scope: 's', holder: 'c1#1', ttlMs: 100 });
    const planned = (await store.execute({ kind: 'PlanIntent', intentId: 'i1', scope: 's', token: 1, operation: 'deploy', retrySafety: 'InspectBeforeRetry' } as Command)) as { intent: { token: number } };
    await store.execute({ kind: 'Acquire', scope: 's', holder: 'c2#1', ttlMs: 100 });
    const moved = (await store.execute({ kind: 'TransitionIntent', intentId: 'i1', to: 'Applied' } as unknown as Command)) as { intent: { token: number } };
    expect([planned.intent.token, moved.intent.token]).toEqual([1, 1]);
  });

  test('an unknown fencing kind is refused', () => {
    const store = { name: 'odd', capabilities: { fencing: 'uuid' as never }, execute: (async () => ({})) as Store['execute'], close: async () => {} };
    expect(() => fenceIdsFor(store)).toThrow(/capabilities.fencing "uuid": expected 'integer', 'opaque' or 'none'/);
  });
});
