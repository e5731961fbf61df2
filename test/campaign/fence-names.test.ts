// How a store whose fences are not integers is set beside the reference model (campaign/fences/):
// opaque fences are named by the model's tokens per scope where the two answers first meet them,
// and judged by equality alone (a fence given again to a new lease is a reuse, 000 §24); a token
// the store never showed goes out as a placeholder and reads back as itself; a ForceReleased
// nextToken and a burned last token are marked not judged on both sides; a store without fences
// is read as sent or as acting on its holder's lease; and a trace hash reads the store's own fences.

import { describe, expect, test } from 'vitest';
import type { Store } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { FenceNames, NOT_JUDGED } from '../../campaign/fences/fence-names.ts';
import { fencelessReadings } from '../../campaign/fences/fenceless-readings.ts';
import { withOwnFences } from '../../campaign/fences/own-fences.ts';
import { fenceIdsFor, type FenceIds } from '../../sim/fence-ids.ts';

const opaqueIds = (): FenceIds => fenceIdsFor({ name: 'opaque', capabilities: { fencing: 'opaque' } } as unknown as Store)!;
const acquire: Command = { kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 100 };
const lease = (token: unknown, holder = 'a', scope = 's') => ({ kind: 'Acquired', lease: { scope, holder, token, acquiredAt: 0, expiresAt: 100 } });

/** The store's raw answer as the check sees it: through the simulator's translation. */
function seen(ids: FenceIds, command: Command, raw: unknown): unknown {
  return ids.answer(command, raw);
}

describe('opaque fences named by the model', () => {
  test("a fence is named by the model's token where they first meet, per scope; the same fence on another scope is another name", () => {
    const ids = opaqueIds();
    const names = FenceNames.over(ids);
    const first = names.compare('s', seen(ids, acquire, lease('job-1')), lease(1));
    expect(first).toMatchObject({ actual: lease(1), expected: lease(1), reused: null, notJudged: [] });
    const other = names.compare('t', seen(ids, acquire, lease('job-1', 'a', 't')), lease(1, 'a', 't'));
    expect(other.actual).toEqual(lease(1, 'a', 't'));
    // Sent back: the model's token 1 on s is the store's own fence again.
    expect(ids.command(names.toStore({ kind: 'Release', scope: 's', holder: 'a', token: 1 }, 's'))).toEqual({ kind: 'Release', scope: 's', holder: 'a', token: 'job-1' });
  });

  test('a fence given again to a lease new in the model is a reuse, and the answers differ', () => {
    const ids = opaqueIds();
    const names = FenceNames.over(ids);
    names.compare('s', seen(ids, acquire, lease('job-1')), lease(1));
    const again = names.compare('s', seen(ids, acquire, lease('job-1', 'b')), lease(2, 'b'));
    expect(again.actual).toEqual(lease(1, 'b'));
    expect(again.expected).toEqual(lease(2, 'b'));
    expect(again.reused).toMatch(/"job-1", its fence of token 1, where the model issues a new token 2/);
  });

  test('a token the store never showed goes out as a placeholder, reads back as itself, and never pairs', () => {
    const ids = opaqueIds();
    const names = FenceNames.over(ids);
    const plan = names.toStore({ kind: 'PlanIntent', intentId: 'i', scope: 's', token: 4, operation: 'o', retrySafety: 'Idempotent' } as Command, 's') as { token: unknown };
    expect(typeof plan.token).toBe('string');
    const echoed = { kind: 'Planned', intent: { intentId: 'i', scope: 's', token: plan.token, operation: 'o', retrySafety: 'Idempotent', state: 'Planned' } };
    const named = names.compare('s', seen(ids, acquire, echoed), { ...echoed, intent: { ...echoed.intent, token: 4 } });
    expect((named.actual as typeof echoed).intent.token).toBe(4);
    // The model's token 4 is still free to name the store's fence of a real lease.
    expect(names.compare('s', seen(ids, acquire, lease('job-9')), lease(4)).actual).toEqual(lease(4));
  });

  test('a ForceReleased nextToken and a burned last token are not judged, on both sides', () => {
    const ids = opaqueIds();
    const names = FenceNames.over(ids);
    const forced = names.compare('s', seen(ids, acquire, { kind: 'ForceReleased', nextToken: 'whatever' }), { kind: 'ForceReleased', nextToken: 3 });
    expect([forced.actual, forced.expected]).toEqual([{ kind: 'ForceReleased', nextToken: NOT_JUDGED }, { kind: 'ForceReleased', nextToken: NOT_JUDGED }]);
    const view = (token: unknown) => ({ kind: 'Snapshot', view: { tokens: [{ scope: 's', lastToken: token }] } });
    const burned = names.compare(undefined, seen(ids, { kind: 'Inspect' }, view('job-1')), view(2));
    expect(burned.actual).toEqual(burned.expected);
    expect(burned.notJudged).toEqual(["a scope's last token where no lease showed it (a burned token)"]);
  });

  test('a copy pairs on without changing the naming it was taken from', () => {
    const ids = opaqueIds();
    const names = FenceNames.over(ids);
    const copy = names.copy();
    copy.compare('s', seen(ids, acquire, lease('job-1')), lease(1));
    expect(copy.key()).not.toBe(names.key());
    expect(names.compare('s', seen(ids, acquire, lease('job-1')), lease(2)).actual).toEqual(lease(2));
  });

  test("a trace hash reads the store's own fences, whatever ids they were given", () => {
    const ids = opaqueIds();
    seen(ids, acquire, lease('job-0'));
    const answer = seen(ids, acquire, lease('job-1'));
    expect((answer as ReturnType<typeof lease>).lease.token).toBe(2);
    expect(withOwnFences(answer, ids, 'opaque')).toEqual(lease('job-1'));
    expect(withOwnFences(answer, ids, 'none')).toEqual({ kind: 'Acquired', lease: { scope: 's', holder: 'a', acquiredAt: 0, expiresAt: 100 } });
  });
});

describe('a store without fences', () => {
  test("a command is read as sent, and also as carrying its holder's lease's fence where that differs", () => {
    const held = step(initialState(), acquire, 0).state;
    const write = { kind: 'Mutate', scope: 's', aggregate: 'x', holder: 'a', token: 1, expectedVersion: 0 } as const;
    expect(fencelessReadings(held, write)).toEqual([write]);
    expect(fencelessReadings(held, { ...write, token: 7 })).toEqual([{ ...write, token: 7 }, write]);
    // Another holder's command has no lease of its own to act on: read as sent.
    expect(fencelessReadings(held, { ...write, holder: 'b', token: 7 })).toEqual([{ ...write, holder: 'b', token: 7 }]);
  });
});
