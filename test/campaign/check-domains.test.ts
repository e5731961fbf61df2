// seed 000 §31, §54, §91, §99–§109, §200–§206, §290 and model/SEMANTICS.md "Constants" and
// clarifications 9, 14, 15: the check draws each field across its domain in the rule book (step
// format 3) and, in its long profile, over tens of scopes, holders and keys for hundreds of steps.
// Each part catches a store mutant that the check without it does not: ttl-max-excluded and
// blank-reason-ascii-only only with the domains, acquire-all-first-eight only with the long
// profile. A path printed in step format 2 still replays the very counterexample it named.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { findMutant, mutantStoreFactory } from '../../mutants/index.ts';
import type { StoreFactory } from '../../adapters/port.ts';
import { checkMutant, checkStore, runSteps, StoreSession, stepsArbitrary } from '../../campaign/check/index.ts';
import {
  CAPACITY_EDGES, ID_EDGES, NOT_WHITE_SPACE, PRIORITY_EDGES, REASON_EDGES, RETENTION_EDGES, TTL_EDGES, UNICODE_WHITE_SPACE, UNITS_EDGES,
} from '../../campaign/check/domains.ts';
import { PROFILES } from '../../campaign/check/profiles.ts';
import type { StepFormat } from '../../campaign/check/step-format.ts';
import { CAPACITY_MAX, ID_MAX_LENGTH, LEASE_TTL_MAX_MS, PRIORITY_LIMIT, RETENTION_MAX_MS } from '../../model/constants.ts';
import { isValidCapacity, isValidId, isValidPriority, isValidRetention, isValidTtl, isValidUnits } from '../../model/validation.ts';

function mutant(name: string): StoreFactory {
  return mutantStoreFactory(findMutant(name)!, createMemoryStore);
}

/** Whether `runs` sequences drawn in `format` over the small world, 50 steps at most, ever diverge on `factory`. */
async function divergesIn(format: StepFormat, factory: StoreFactory, runs: number): Promise<boolean> {
  const session = await StoreSession.open(factory);
  try {
    const steps = stepsArbitrary({ snapshots: session.durable, maxSteps: 50, format });
    const property = fc.asyncProperty(steps, async (sequence) => (await runSteps(session, sequence, 10_000, format)).kind !== 'diverged');
    return (await fc.check(property, { numRuns: runs, seed: 1 })).failed;
  } finally {
    await session.close();
  }
}

describe('the domains of the rule book', () => {
  test('each integer field is drawn at its bounds and one past them, valid and not as the model judges', () => {
    const fields = [
      { edges: TTL_EDGES, valid: isValidTtl, min: 1, max: LEASE_TTL_MAX_MS },
      { edges: PRIORITY_EDGES, valid: isValidPriority, min: -PRIORITY_LIMIT, max: PRIORITY_LIMIT },
      { edges: CAPACITY_EDGES, valid: isValidCapacity, min: 1, max: CAPACITY_MAX },
      { edges: UNITS_EDGES, valid: isValidUnits, min: 1, max: Number.MAX_SAFE_INTEGER },
      { edges: RETENTION_EDGES, valid: isValidRetention, min: 1, max: RETENTION_MAX_MS },
    ];
    for (const { edges, valid, min, max } of fields) {
      expect(edges).toEqual(expect.arrayContaining([min - 1, min, max, max + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32]));
      expect([valid(min), valid(max), valid(min - 1), valid(max + 1), valid(min + 0.5)]).toEqual([true, true, false, false, false]);
      expect(edges.some((value) => !Number.isInteger(value))).toBe(true);
    }
  });

  test('a reason is drawn blank in every kind of white space trim strips, and not blank in its look-alikes', () => {
    for (const space of UNICODE_WHITE_SPACE) expect(REASON_EDGES).toContain(space);
    expect(UNICODE_WHITE_SPACE.every((space) => space.trim() === '')).toBe(true);
    expect(NOT_WHITE_SPACE.every((c) => REASON_EDGES.includes(c) && c.trim() !== '')).toBe(true);
  });

  test('ids are drawn valid and invalid at the length bound and the control range', () => {
    const valid = ID_EDGES.filter((id) => isValidId(id));
    expect(valid).toContain('x'.repeat(ID_MAX_LENGTH));
    expect(ID_EDGES.filter((id) => !isValidId(id))).toEqual(expect.arrayContaining(['', 'x'.repeat(ID_MAX_LENGTH + 1), '\u0001', 'a\u001f']));
    // Few enough valid ones that the default profile cannot name more than a dozen lease scopes.
    expect(valid.length).toBeLessThanOrEqual(8);
  });

  test('the memory store agrees with the model on the domains, and in the long profile', async () => {
    expect((await checkStore({ factory: createMemoryStore, runs: 2_000, seed: 4 })).verdict).toBe('pass');
    expect((await checkStore({ factory: createMemoryStore, profile: 'long', runs: 200, seed: 4 })).verdict).toBe('pass');
  });
});

describe('each part catches a mutant the check without it does not', () => {
  test.each(['ttl-max-excluded', 'blank-reason-ascii-only'])('%s: caught by the domains (default profile) within 10 s, never in step format 2', async (name) => {
    const caught = await checkMutant(findMutant(name)!);
    expect(caught).toMatchObject({ caught: true, profile: 'default' });
    expect(caught!.firstFailureMs!).toBeLessThan(10_000);
    expect(caught!.replay).toMatch(/ --path v3:/);
    expect(await divergesIn(2, mutant(name), 5_000)).toBe(false);
  });

  test('acquire-all-first-eight: caught by the long profile within 10 s, never by the default one nor step format 2', async () => {
    const missed = await checkStore({ factory: mutant('acquire-all-first-eight'), runs: 5_000, seed: 1 });
    expect(missed.verdict).toBe('pass');
    expect(await divergesIn(2, mutant('acquire-all-first-eight'), 5_000)).toBe(false);
    const caught = await checkMutant(findMutant('acquire-all-first-eight')!);
    expect(caught).toMatchObject({ caught: true, profile: 'long' });
    expect(caught!.firstFailureMs!).toBeLessThan(10_000);
    expect(caught!.replay).toMatch(/^npx testbed check --adapter mutant:acquire-all-first-eight --profile long --seed 1 --path v3:/);
    expect(PROFILES.long.maxSteps).toBeGreaterThanOrEqual(200);
    expect(PROFILES.long.world.leaseScopes.length).toBeGreaterThanOrEqual(20);
  });
});

describe('paths printed in step format 2', () => {
  test('replay the very counterexample they named', async () => {
    const path = 'v2:33:2:2:0:3:8:7:8:9:9:11:11:11:6:6:6:6';
    const replayed = await checkStore({ factory: mutant('semaphore-off-by-one'), seed: 1, path });
    expect(replayed.verdict).toBe('fail');
    if (replayed.verdict !== 'fail') return;
    expect(replayed.path).toBe(path);
    expect(replayed.steps.map((s) => s.command)).toEqual([
      { kind: 'DefineCapacity', scope: 'custom:b0b6de58efcfac0e248b', capacity: 2 },
      { kind: 'AcquirePermit', scope: 'custom:b0b6de58efcfac0e248b', permitId: '1', holder: 'A', units: 3, ttlMs: 50 },
    ]);
    const jobs = await checkStore({ factory: mutant('finish-after-return'), seed: 1, path: 'v2:2424:4:2:5:6:7:6:3:5:7:7:7:8:8:8:9:8:7' });
    expect(jobs.verdict === 'fail' && jobs.steps.map((s) => s.command?.kind)).toEqual(['SubmitJob', 'DispatchJob', 'ReturnJob', 'FinishJob']);
  });
});
