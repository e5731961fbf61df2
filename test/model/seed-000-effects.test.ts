// seed 000 §283–§285, §288–§289: idempotency replay and conflict, unknown outcomes, provider timeouts and cancellation.

import { describe, expect, test } from 'vitest';
import { cancelSequence, mayReleaseLease } from '../../model/cancel-sequence.ts';
import type { IdempotencyBeginCommand } from '../../model/commands.ts';
import { expiredUnreconciledLeases } from '../../model/doctor.ts';
import { retryDecision } from '../../model/retry-policy.ts';
import { ModelDriver, scope } from './model-driver.ts';

const PROD = scope('prod');
const begin = (digest: string): IdempotencyBeginCommand => ({
  kind: 'IdempotencyBegin',
  tenant: 'acme',
  operation: 'release.publish',
  subject: 'release-42',
  key: 'k-1',
  digest,
  retentionMs: 86_400_000,
  retryAfterTerminal: false,
});

describe('seed 000 test list: idempotency and effects', () => {
  test('000 §283 idempotency same request: same semantic result', () => {
    const m = new ModelDriver();
    m.expect(begin('d1'), 'New');
    m.expect(begin('d1'), 'InProgress');
    m.expect({ ...begin('d1'), kind: 'IdempotencyComplete', outcome: { kind: 'Succeeded', response: 'published:v42' } }, 'Recorded');
    const first = m.expect(begin('d1'), 'Replay');
    const second = m.advance(60_000).expect(begin('d1'), 'Replay');
    expect(first.outcome).toEqual({ kind: 'Succeeded', response: 'published:v42' });
    expect(second).toEqual(first);
  });

  test('000 §284 idempotency different request: conflict', () => {
    const m = new ModelDriver();
    m.expect(begin('d1'), 'New');
    expect(m.run(begin('d2'))).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
    m.expect({ ...begin('d1'), kind: 'IdempotencyComplete', outcome: { kind: 'FailedTerminal', error: 'quota' } }, 'Recorded');
    expect(m.run({ ...begin('d2'), retryAfterTerminal: true })).toEqual({ kind: 'Conflict', existingDigest: 'd1' });
    // The key is scoped: the same key under another subject is a different record.
    m.expect({ ...begin('d2'), subject: 'release-43' }, 'New');
  });

  test('000 §285 unknown outcome: no blind duplicate effect', () => {
    const m = new ModelDriver();
    m.expect(begin('d1'), 'New');
    m.expect({ ...begin('d1'), kind: 'IdempotencyComplete', outcome: { kind: 'Unknown' } }, 'Recorded');
    // A retry of the same request sees Unknown, never New: it must reconcile, not re-run.
    m.expect(begin('d1'), 'Unknown');
    m.expect({ ...begin('d1'), retryAfterTerminal: true }, 'Unknown');
    expect(retryDecision('InspectBeforeRetry', 'Unknown')).toBe('inspect-first');
    expect(retryDecision('ManualOnly', 'Timeout')).toBe('manual');
    // Reconciliation resolves it explicitly; then the stored result is replayed.
    m.expect({ ...begin('d1'), kind: 'IdempotencyComplete', outcome: { kind: 'Succeeded', response: 'found-applied' } }, 'Recorded');
    expect(m.run(begin('d1'))).toEqual({ kind: 'Replay', outcome: { kind: 'Succeeded', response: 'found-applied' } });
  });

  test('000 §288 provider timeout: lease not blindly released before observation', () => {
    const m = new ModelDriver();
    const a = m.expect({ kind: 'Acquire', scope: PROD, holder: 'A', ttlMs: 2_000 }, 'Acquired');
    m.expect({ kind: 'PlanIntent', intentId: 'rollout-1', scope: PROD, token: a.lease.token, operation: 'rollout', retrySafety: 'InspectBeforeRetry' }, 'Planned');
    m.expect({ kind: 'TransitionIntent', intentId: 'rollout-1', to: 'Started' }, 'Transitioned');
    m.expect({ kind: 'TransitionIntent', intentId: 'rollout-1', to: 'Unknown' }, 'Transitioned');
    const intents = m.view().intents.map((i) => ({ intentId: i.intentId, state: i.state }));
    expect(mayReleaseLease(intents)).toBe(false);
    expect(retryDecision('InspectBeforeRetry', 'Timeout')).toBe('inspect-first');
    // If the holder lets the lease lapse anyway, the doctor reports the unreconciled effect.
    m.advance(2_000);
    expect(expiredUnreconciledLeases(m.view()).map((f) => f.check)).toEqual(['expired-unreconciled-lease']);
  });

  test('000 §289 cancel: lease retained through side-effect reconciliation', () => {
    const steps = cancelSequence([
      { intentId: 'a', state: 'Started' },
      { intentId: 'b', state: 'Planned' },
      { intentId: 'c', state: 'Unknown' },
      { intentId: 'd', state: 'Reconciled' },
    ]);
    expect(steps).toEqual([
      { kind: 'stop-new-effects' },
      { kind: 'abandon', intentId: 'b' },
      { kind: 'reconcile', intentId: 'a' },
      { kind: 'reconcile', intentId: 'c' },
      { kind: 'transition-business-state' },
      { kind: 'release-lease' },
    ]);
    expect(mayReleaseLease([{ intentId: 'a', state: 'Started' }])).toBe(false);
    expect(mayReleaseLease([{ intentId: 'a', state: 'Reconciled' }, { intentId: 'b', state: 'Failed' }])).toBe(true);
  });
});
