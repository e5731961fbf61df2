// seed 000 §299–§300 (and §24, §46–§47, §53, §207): fuzzed command sequences keep every safety property of the model.

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { Command, CommandKind } from '../../model/commands.ts';
import { idempotencyDomain } from '../../model/idempotency.ts';
import { OUTCOME_KINDS } from '../../model/outcome-kinds.ts';
import type { Outcome, StoreView } from '../../model/outcomes.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { CAPACITY, CAPACITY_SCOPE, resolveCommand, runArb, SETUP, type TimedCommand } from './command-arbitrary.ts';

/** Every outcome kind each command may answer (the port's own table). */
const ALLOWED: Readonly<Record<CommandKind, ReadonlyArray<string>>> = OUTCOME_KINDS;

interface Executed {
  readonly now: number;
  readonly command: Command;
  readonly outcome: Outcome;
  readonly before: ModelState;
  readonly after: ModelState;
}

type StepFn = typeof step;

function execute(run: ReadonlyArray<TimedCommand>, stepFn: StepFn = step): ReadonlyArray<Executed> {
  let state = initialState();
  let now = 0;
  for (const command of SETUP) state = step(state, command, now).state;
  return run.map(({ advanceMs, command: generated }) => {
    now += advanceMs;
    const before = state;
    const command = resolveCommand(state, generated, now);
    const result = stepFn(state, command, now);
    state = result.state;
    return { now, command, outcome: result.outcome, before, after: state };
  });
}

function viewAt(state: ModelState, now: number): StoreView {
  const outcome = step(state, { kind: 'Inspect' }, now).outcome;
  return outcome.view;
}

/** Every lease a command granted, in the order granted. */
function grants(executed: Executed): ReadonlyArray<{ readonly scope: string; readonly token: number; readonly holder: string }> {
  const o = executed.outcome;
  if (o.kind === 'Acquired' || o.kind === 'HandedOff') return [o.lease];
  if (o.kind === 'AcquiredAll') return o.leases;
  return [];
}

function expectOneOwnerPerToken(run: ReadonlyArray<Executed>): void {
  const owners = new Map<string, string>();
  for (const executed of run) {
    for (const lease of grants(executed)) {
      const key = `${lease.scope}#${lease.token}`;
      expect(owners.has(key), `token ${key} granted twice`).toBe(false);
      owners.set(key, lease.holder);
    }
    if (executed.outcome.kind === 'Accepted') {
      const c = executed.command as Extract<Command, { kind: 'Mutate' }>;
      expect(owners.get(`${c.scope}#${executed.outcome.token}`)).toBe(c.holder);
    }
    const view = viewAt(executed.after, executed.now);
    expect(new Set(view.leases.map((l) => l.scope)).size).toBe(view.leases.length);
  }
}

function expectMonotonicTokens(run: ReadonlyArray<Executed>): void {
  const last = new Map<string, number>();
  for (const executed of run) {
    for (const lease of grants(executed)) {
      expect(lease.token).toBeGreaterThan(last.get(lease.scope) ?? 0);
      last.set(lease.scope, lease.token);
    }
    if (executed.outcome.kind === 'ForceReleased') {
      const scope = executed.outcome.tombstone.scope;
      expect(executed.outcome.nextToken).toBeGreaterThan((last.get(scope) ?? 0) + 1);
    }
    for (const [scope, token] of executed.before.lastTokens) expect(executed.after.lastTokens.get(scope)).toBeGreaterThanOrEqual(token);
  }
}

/** A known-bad store (docs/ARCHITECTURE.md "Mutants"): a restore that resets the token counters. */
const resettingStep: StepFn = (state, command, now) => {
  const result = step(state, command, now);
  if (command.kind !== 'AdvanceRecoveryEpoch') return result;
  return { ...result, state: { ...result.state, recoveryEpoch: 0, lastTokens: new Map() } };
};

describe('seed 000 property tests', () => {
  test.prop([runArb], { numRuns: 300 })('000 §299 fuzzing: random command sequences never throw and always return a well-typed outcome', (run) => {
    for (const { command, outcome, before, after, now } of execute(run)) {
      expect(ALLOWED[command.kind]).toContain(outcome.kind);
      // A Rejected command changes nothing, except a guard's epoch (SEMANTICS.md clarification 3).
      if (outcome.kind === 'Rejected' || outcome.kind === 'Busy') {
        expect(viewAt({ ...after, roleEpochs: before.roleEpochs }, now)).toEqual(viewAt(before, now));
      }
    }
  });

  test.prop([runArb], { numRuns: 300 })('000 §300 property: at most one accepted owner per exclusive scope and token', (run) => {
    expectOneOwnerPerToken(execute(run));
  });

  test.prop([runArb], { numRuns: 300 })('property: fencing tokens strictly increase per scope and last tokens never go down', (run) => {
    expectMonotonicTokens(execute(run));
  });

  test.prop([runArb], { numRuns: 300 })('property: semaphore capacity is never exceeded by permits and reservations together, and expired reservations never move', (run) => {
    for (const executed of execute(run)) {
      const view = viewAt(executed.after, executed.now);
      const permits = view.permits.filter((p) => p.scope === CAPACITY_SCOPE).reduce((sum, p) => sum + p.units, 0);
      const held = view.reservations.filter((r) => r.scope === CAPACITY_SCOPE && (r.state === 'Pending' || r.state === 'Active'));
      expect(permits + held.reduce((sum, r) => sum + r.units, 0)).toBeLessThanOrEqual(CAPACITY);
      // An expired reservation is never activated, consumed, released or failed (§212).
      if (executed.outcome.kind === 'ReservationUpdated') expect(executed.outcome.reservation.expiresAt).toBeGreaterThan(executed.now);
    }
  });

  test.prop([runArb], { numRuns: 300 })('property: same idempotency key with another digest is always a conflict, and Unknown never becomes New', (run) => {
    const digests = new Map<string, string>();
    const lastState = new Map<string, string>();
    for (const { command, outcome } of execute(run)) {
      if (command.kind !== 'IdempotencyBegin' && command.kind !== 'IdempotencyComplete') continue;
      const key = `${idempotencyDomain(command)}#${command.key}`;
      const first = digests.get(key);
      if (first !== undefined && first !== command.digest) expect(outcome).toEqual({ kind: 'Conflict', existingDigest: first });
      if (command.kind === 'IdempotencyBegin' && lastState.get(key) === 'Unknown' && first === command.digest) expect(outcome.kind).toBe('Unknown');
      if (outcome.kind === 'New') {
        digests.set(key, command.digest);
        lastState.set(key, 'InProgress');
      }
      if (outcome.kind === 'Recorded' && command.kind === 'IdempotencyComplete') lastState.set(key, command.outcome.kind);
    }
  });

  test.prop([runArb, runArb])('property: a state is never modified by later commands (store images stay valid)', (first, second) => {
    const executed = execute(first);
    const image = executed[executed.length - 1];
    if (image === undefined) return;
    const frozen = JSON.stringify(viewAt(image.after, image.now));
    let state = image.after;
    let now = image.now;
    for (const { advanceMs, command } of second) state = step(state, command, (now += advanceMs)).state;
    expect(JSON.stringify(viewAt(image.after, image.now))).toBe(frozen);
  });

  test('the ownership and monotonicity properties catch a store that resets tokens on restore', () => {
    const caught = (check: (run: ReadonlyArray<Executed>) => void) =>
      fc.check(fc.property(runArb, (run) => check(execute(run, resettingStep))), { numRuns: 500, seed: 42 }).failed;
    expect(caught(expectOneOwnerPerToken)).toBe(true);
    expect(caught(expectMonotonicTokens)).toBe(true);
  });
});
