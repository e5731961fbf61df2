// seed 000 §43–§65 and model/SEMANTICS.md "Idempotency"/"External-effect intents": records, retention and intent transitions.

import { describe, expect, test } from 'vitest';
import type { IdempotencyBeginCommand } from '../../model/commands.ts';
import { EFFECT_STATES } from '../../model/effect-state.ts';
import { INTENT_TRANSITIONS } from '../../model/effect-intent.ts';
import { ModelDriver, scope } from './model-driver.ts';

const begin: IdempotencyBeginCommand = {
  kind: 'IdempotencyBegin',
  tenant: 'acme',
  operation: 'deploy',
  subject: 'env-1',
  key: 'k',
  digest: 'd',
  retentionMs: 1_000,
  retryAfterTerminal: true,
};

describe('idempotency records', () => {
  test('invalid fields or retention are rejected before any lookup', () => {
    const m = new ModelDriver();
    expect(m.run({ ...begin, key: '' })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.run({ ...begin, retentionMs: 0 })).toEqual({ kind: 'Rejected', reason: 'invalid-argument' });
    expect(m.view().idempotency).toEqual([]);
  });

  test('FailedTerminal restarts as a new operation only when the policy allows it', () => {
    const m = new ModelDriver();
    m.expect(begin, 'New');
    m.expect({ ...begin, kind: 'IdempotencyComplete', outcome: { kind: 'FailedTerminal', error: 'e' } }, 'Recorded');
    expect(m.run({ ...begin, retryAfterTerminal: false })).toEqual({ kind: 'Replay', outcome: { kind: 'FailedTerminal', error: 'e' } });
    m.advance(10).expect(begin, 'New');
    expect(m.view().idempotency[0]).toMatchObject({ state: 'InProgress', outcome: null, createdAt: m.now, expiresAt: m.now + 1_000 });
  });

  test('a final record is not overwritten, and an expired record is absent', () => {
    const m = new ModelDriver();
    m.expect(begin, 'New');
    m.expect({ ...begin, kind: 'IdempotencyComplete', outcome: { kind: 'Succeeded', response: 'r' } }, 'Recorded');
    expect(m.run({ ...begin, kind: 'IdempotencyComplete', outcome: { kind: 'Unknown' } })).toEqual({ kind: 'AlreadyFinal', outcome: { kind: 'Succeeded', response: 'r' } });
    m.advance(1_000);
    expect(m.run({ ...begin, kind: 'IdempotencyComplete', outcome: { kind: 'Unknown' } })).toEqual({ kind: 'NotFound' });
    expect(m.view().idempotency).toEqual([]);
    m.expect({ ...begin, digest: 'other' }, 'New');
  });

  test('the scope of a key includes tenant and operation (§44)', () => {
    const m = new ModelDriver();
    m.expect(begin, 'New');
    m.expect({ ...begin, tenant: 'globex', digest: 'x' }, 'New');
    m.expect({ ...begin, operation: 'publish', digest: 'x' }, 'New');
    expect(m.view().idempotency).toHaveLength(3);
  });
});

describe('effect intents', () => {
  test('every transition outside the table is refused, every one inside is allowed', () => {
    for (const from of EFFECT_STATES) {
      for (const to of EFFECT_STATES) {
        const m = new ModelDriver();
        m.expect({ kind: 'PlanIntent', intentId: 'i', scope: scope('prod'), token: 1, operation: 'op', retrySafety: 'ManualOnly' }, 'Planned');
        const path: Record<string, ReadonlyArray<'Started' | 'Succeeded' | 'Failed' | 'Unknown' | 'Reconciled'>> = {
          Planned: [],
          Started: ['Started'],
          Succeeded: ['Started', 'Succeeded'],
          Failed: ['Failed'],
          Unknown: ['Started', 'Unknown'],
          Reconciled: ['Failed', 'Reconciled'],
        };
        for (const state of path[from]!) m.expect({ kind: 'TransitionIntent', intentId: 'i', to: state }, 'Transitioned');
        const outcome = m.run({ kind: 'TransitionIntent', intentId: 'i', to });
        expect(outcome.kind).toBe(INTENT_TRANSITIONS[from].includes(to) ? 'Transitioned' : 'InvalidTransition');
      }
    }
  });

  test('a duplicate plan returns the existing intent unchanged; an unknown id is NotFound', () => {
    const m = new ModelDriver();
    const planned = m.expect({ kind: 'PlanIntent', intentId: 'i', scope: scope('prod'), token: 1, operation: 'op', retrySafety: 'Idempotent' }, 'Planned');
    expect(m.run({ kind: 'PlanIntent', intentId: 'i', scope: scope('prod'), token: 9, operation: 'other', retrySafety: 'ManualOnly' })).toEqual({ kind: 'Duplicate', intent: planned.intent });
    expect(m.run({ kind: 'TransitionIntent', intentId: 'nope', to: 'Started' })).toEqual({ kind: 'NotFound' });
  });
});
