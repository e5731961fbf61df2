// Checkers against the reference model (model/SEMANTICS.md): histories the rule book produces violate no store-level invariant.
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { checkAll, type InvariantName } from '../../../model/checkers/index.ts';
import type { Command } from '../../../model/commands.ts';
import type { History } from '../../../model/history.ts';
import { initialState } from '../../../model/state.ts';
import { step } from '../../../model/step.ts';
import { SETUP, runArb, type TimedCommand } from '../command-arbitrary.ts';
import { scope } from '../model-driver.ts';
import { HistoryBuilder } from './history-builder.ts';

/** Invariants the store alone must keep; the others judge controllers, faults or phases. */
const STORE_INVARIANTS: ReadonlyArray<InvariantName> = ['one-owner-per-epoch', 'lease-exclusive', 'fencing-monotonic', 'unknown-not-new', 'digest-conflict', 'capacity', 'force-release-audited', 'restore-invalidates'];

function referenceHistory(run: ReadonlyArray<TimedCommand>): History {
  const h = new HistoryBuilder();
  let state = initialState();
  let now = 1_000;
  for (const { advanceMs, command } of run) {
    now += advanceMs;
    const result = step(state, command, now);
    state = result.state;
    h.at(now).invoke('c1#1', command.kind, command);
    h.at(now).event('c1#1', 'ok', command.kind, result.outcome);
  }
  return h.build();
}

const SCOPES = [scope('prod'), scope('staging')];
const HOLDERS = ['A', 'B', 'C'];
const ACTIONS = ['acquire', 'mutate', 'release', 'handoff', 'force', 'restore', 'reconcile', 'begin', 'complete', 'permit', 'reserve', 'consume'] as const;

/**
 * Lease-heavy runs: holders act with the tokens they last saw, so stale tokens, handoffs, force
 * releases and recovery epochs are frequent, and idempotency keys collide on purpose.
 */
const leaseRunArb = fc
  .array(fc.record({ action: fc.constantFrom(...ACTIONS), a: fc.nat(5), b: fc.nat(5), advanceMs: fc.constantFrom(0, 0, 10, 400, 1_500) }), { minLength: 10, maxLength: 80 })
  .map((actions) => {
    const known = new Map<string, number>();
    const run: TimedCommand[] = SETUP.map((command) => ({ advanceMs: 0, command }));
    let state = initialState();
    let now = 1_000;
    for (const { action, a, b, advanceMs } of actions) {
      const sc = SCOPES[a % SCOPES.length] as string;
      const holder = HOLDERS[b % HOLDERS.length] as string;
      const token = known.get(`${sc}/${holder}`) ?? 1;
      const ref = { tenant: 't', operation: 'deploy', subject: 's', key: `k${a % 2}`, digest: `d${b % 2}` };
      const commands: Record<(typeof ACTIONS)[number], Command> = {
        acquire: { kind: 'Acquire', scope: sc, holder, ttlMs: 1_000 },
        mutate: { kind: 'Mutate', scope: sc, aggregate: 'agg', holder, token, expectedVersion: state.aggregates.get(sc)?.get('agg')?.version ?? 0 },
        release: { kind: 'Release', scope: sc, holder, token },
        handoff: { kind: 'Handoff', scope: sc, holder, token, newHolder: HOLDERS[(b + 1) % HOLDERS.length] as string, ttlMs: 1_000 },
        force: { kind: 'ForceRelease', scope: sc, expectedToken: token, actor: 'ops', reason: 'verified', privileged: true },
        restore: { kind: 'AdvanceRecoveryEpoch', atLeast: 0, blockScopes: [] },
        reconcile: { kind: 'ReconcileScope', scope: sc, actor: 'ops' },
        begin: { kind: 'IdempotencyBegin', ...ref, retentionMs: 2_000, retryAfterTerminal: b % 2 === 0 },
        complete: { kind: 'IdempotencyComplete', ...ref, outcome: b % 3 === 0 ? { kind: 'Unknown' } : b % 3 === 1 ? { kind: 'Succeeded', response: 'r' } : { kind: 'FailedTerminal', error: 'e' } },
        permit: { kind: 'AcquirePermit', scope: SETUP_SCOPE, permitId: `p${a}`, holder, units: 1 + (b % 2), ttlMs: 1_000 },
        reserve: { kind: 'Reserve', scope: SETUP_SCOPE, reservationId: `r${a}`, owner: holder, units: 1, ttlMs: 1_000 },
        consume: { kind: 'ConsumeReservation', reservationId: `r${a}` },
      };
      const command = commands[action];
      now += advanceMs;
      const result = step(state, command, now);
      state = result.state;
      const outcome = result.outcome as { kind: string; lease?: { scope: string; holder: string; token: number } };
      if (outcome.lease !== undefined) known.set(`${outcome.lease.scope}/${outcome.lease.holder}`, outcome.lease.token);
      run.push({ advanceMs, command });
    }
    return run;
  });

const SETUP_SCOPE = (SETUP[0] as { readonly scope: string }).scope;

test.prop([runArb.map((run) => [...SETUP.map((command) => ({ advanceMs: 0, command })), ...run])], { numRuns: 100 })(
  'reference model histories of random commands pass every store-level invariant',
  (run) => {
    expect(checkAll(referenceHistory(run), STORE_INVARIANTS)).toMatchObject({ valid: true, violations: [] });
  },
);

test.prop([leaseRunArb], { numRuns: 150 })('reference model histories of lease-heavy runs pass every store-level invariant', (run) => {
  expect(checkAll(referenceHistory(run), STORE_INVARIANTS)).toMatchObject({ valid: true, violations: [] });
});
