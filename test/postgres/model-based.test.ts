// Differential (DESIGN.md "History and checkers"): random command sequences with time advances
// give, outcome for outcome, what the reference state machine (model/step.ts) gives; a
// disagreement shrinks to a minimal sequence of steps.

import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from 'vitest';
import type { Command } from '../../model/commands.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { Store } from '../../adapters/port.ts';
import { usePostgres } from './fixture.ts';

interface Model {
  state: ModelState;
  now: number;
}

interface Real {
  store: Store;
  clock: { t: number };
}

/** Placeholders resolved against the model when the step runs, so that commands often hit. */
const LIVE_TOKEN = -424242;
const LIVE_HOLDER = '@live';

function resolve(template: Command, state: ModelState): Command {
  if (!('scope' in template)) return template;
  const lease = state.leases.get(template.scope);
  const resolved: Record<string, unknown> = { ...template };
  for (const field of ['token', 'expectedToken'] as const) {
    if (resolved[field] === LIVE_TOKEN) resolved[field] = lease?.token ?? state.lastTokens.get(template.scope) ?? 1;
  }
  if (resolved.holder === LIVE_HOLDER) resolved.holder = lease?.holder ?? 'h1';
  return resolved as unknown as Command;
}

class Execute implements fc.AsyncCommand<Model, Real> {
  private resolved: Command | null = null;
  constructor(readonly template: Command) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const command = resolve(this.template, model.state);
    this.resolved = command;
    const expected = step(model.state, command, model.now);
    model.state = expected.state;
    const actual = await real.store.execute(command);
    if (!isDeepStrictEqual(actual, expected.outcome)) {
      expect(actual, `${this.toString()} at t=${model.now}`).toEqual(expected.outcome);
    }
  }
  toString(): string {
    return JSON.stringify(this.resolved ?? this.template);
  }
}

class AdvanceTime implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    model.now += this.ms;
    real.clock.t += this.ms;
  }
  toString(): string {
    return `advance ${this.ms}ms`;
  }
}

const scope = fc.constantFrom('a', 'b');
const holder = fc.constantFrom('h1', 'h2');
const heldBy = fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_HOLDER) }, { weight: 1, arbitrary: holder });
const token = fc.oneof({ weight: 6, arbitrary: fc.constant(LIVE_TOKEN) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1_000_000_001) });
const ttl = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(1000, 5000) }, { weight: 3, arbitrary: fc.constantFrom(50, 300) }, { weight: 1, arbitrary: fc.constantFrom(0, 600_001) });
const waiterId = fc.constantFrom('w1', 'w2', 'w3');
const digest = fc.constantFrom('d1', 'd2');
const ref = fc.record({ tenant: fc.constant('t'), operation: fc.constant('op'), subject: fc.constant('s'), key: fc.constantFrom('k1', 'k2'), digest });
const stored = fc.oneof(
  fc.record({ kind: fc.constant('Succeeded' as const), response: fc.constantFrom('ok', 'x') }),
  fc.record({ kind: fc.constant('FailedTerminal' as const), error: fc.constant('no') }),
  fc.constant({ kind: 'Unknown' as const }),
);
/** Present in one command of five: a present guard, a waiter id or a block are rare on purpose. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}
const guard = sometimes(fc.record({ role: fc.constantFrom('r1', 'r2'), epoch: fc.integer({ min: -1, max: 3 }) }));
const reservationId = fc.constantFrom('r1', 'r2', 'r3');

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('Acquire' as const), scope, holder, ttlMs: ttl, waiterId: sometimes(waiterId), guard }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('Renew' as const), scope, holder: heldBy, expectedToken: token, ttlMs: ttl }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('Release' as const), scope, holder: heldBy, token }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('Handoff' as const), scope, holder: heldBy, token, newHolder: holder, ttlMs: ttl }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('ForceRelease' as const), scope, expectedToken: token, actor: fc.constant('ops'), reason: fc.constantFrom('stuck', ' '), privileged: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('Enqueue' as const), scope, waiterId, holder, priority: fc.integer({ min: -2, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('CancelWait' as const), scope, waiterId }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('Mutate' as const), scope, aggregate: fc.constant('g'), holder: heldBy, token, expectedVersion: fc.integer({ min: 0, max: 2 }), guard }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('DefineCapacity' as const), scope, capacity: fc.integer({ min: 0, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('AcquirePermit' as const), scope, permitId: fc.constantFrom('p1', 'p2'), holder, units: fc.integer({ min: 0, max: 3 }), ttlMs: ttl }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ReleasePermit' as const), scope, permitId: fc.constantFrom('p1', 'p2') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('Reserve' as const), scope, reservationId, owner: holder, units: fc.integer({ min: 1, max: 2 }), ttlMs: ttl }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('ActivateReservation' as const, 'ConsumeReservation' as const, 'ReleaseReservation' as const, 'FailReservation' as const), reservationId }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AcquireAll' as const), scopes: fc.subarray(['a', 'b', 'c']), holder, ttlMs: ttl }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(ref, fc.constantFrom(100, 2000), fc.boolean())
      .map(([r, retentionMs, retryAfterTerminal]) => ({ kind: 'IdempotencyBegin' as const, ...r, retentionMs, retryAfterTerminal })),
  },
  { weight: 2, arbitrary: fc.tuple(ref, stored).map(([r, outcome]) => ({ kind: 'IdempotencyComplete' as const, ...r, outcome })) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('PlanIntent' as const),
      intentId: fc.constantFrom('i1', 'i2'),
      scope,
      token,
      operation: fc.constant('charge'),
      retrySafety: fc.constantFrom('Idempotent' as const, 'InspectBeforeRetry' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('TransitionIntent' as const),
      intentId: fc.constantFrom('i1', 'i2'),
      to: fc.constantFrom('Planned' as const, 'Started' as const, 'Succeeded' as const, 'Failed' as const, 'Unknown' as const, 'Reconciled' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRecoveryEpoch' as const), atLeast: fc.integer({ min: 0, max: 3 }), blockScopes: sometimes(fc.subarray(['a', 'b'])).map((s) => s ?? []) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ReconcileScope' as const), scope, actor: fc.constant('ops') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role: fc.constantFrom('r1', 'r2'), epoch: fc.integer({ min: -1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'Inspect' as const }) },
);

const commands = fc.commands(
  [
    commandArb.map((command) => new Execute(command)),
    fc.constantFrom(1, 50, 250, 300, 999, 1000, 5000).map((ms) => new AdvanceTime(ms)),
  ],
  { maxCommands: 60, size: 'large' },
);

const pg = usePostgres();

test('the PostgreSQL store returns the reference model outcome for every command of a random sequence', async () => {
  const clock = { t: 5_000 };
  const store = await pg.store({ time: { now: () => clock.t }, poolSize: 1 });
  // Each run starts from the empty store: restoring its first image also exercises restore().
  await store.execute({ kind: 'Inspect' });
  const empty = await store.snapshot!();
  try {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        clock.t = 5_000;
        await store.restore!(empty);
        await fc.asyncModelRun(() => ({ model: { state: initialState(), now: clock.t }, real: { store, clock } }), cmds);
      }),
      { numRuns: 80 },
    );
  } finally {
    await store.close();
  }
}, 120_000);
