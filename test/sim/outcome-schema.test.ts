// The port's outcome shapes (sim/outcome-schema.ts) admit every outcome the reference model gives
// (so no honest store is taken for a contract breach), and refuse outcomes with a field missing or
// of the wrong type, naming the field (docs/ARCHITECTURE.md "The store port").

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ALL_COMMAND_KINDS, commandArbitrary } from '../../campaign/check/command-arbitraries.ts';
import { resolveCommand } from '../../campaign/check/resolve.ts';
import { START_MS } from '../../campaign/check/world.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { shapeBreach } from '../../sim/outcome-schema.ts';
import { contractBreach } from '../../sim/port-contract.ts';

const anyCommand = fc.oneof(...ALL_COMMAND_KINDS.map((kind) => commandArbitrary(kind)));

describe('outcome shapes', () => {
  test("every outcome of the reference model has its command's shape", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(fc.tuple(anyCommand, fc.integer({ min: 0, max: 5_000 })), { minLength: 1, maxLength: 60 }), (steps) => {
        let state = initialState();
        let now = START_MS;
        for (const [template, advance] of steps) {
          now += advance;
          const command = resolveCommand(state, template, now);
          let next;
          try {
            next = step(state, command, now);
          } catch {
            continue;
          }
          state = next.state;
          seen.add(`${command.kind}:${next.outcome.kind}`);
          expect(shapeBreach(command.kind, next.outcome), `${command.kind} → ${JSON.stringify(next.outcome)}`).toBeNull();
          expect(shapeBreach('Inspect', step(state, { kind: 'Inspect' }, now).outcome)).toBeNull();
        }
      }),
      { numRuns: 300, seed: 42 },
    );
    // Not vacuous: many outcome kinds of many commands were judged.
    expect(seen.size).toBeGreaterThan(40);
  });

  test('a missing field or a field of the wrong type is named', () => {
    const acquire = { kind: 'Acquire', scope: 's', holder: 'h', ttlMs: 100 } as const;
    expect(shapeBreach('Acquire', { kind: 'Acquired' })).toMatch(/^lease: /);
    expect(shapeBreach('Acquire', { kind: 'Busy', holder: 'h', token: 1, expiresAt: '10' })).toMatch(/^expiresAt: /);
    expect(shapeBreach('Mutate', { kind: 'Accepted', version: 'two', token: 1 })).toMatch(/^version: /);
    expect(shapeBreach('ListJobs', { kind: 'JobList', jobs: [{ jobId: 'j' }] })).toMatch(/^jobs\.0\./);
    expect(contractBreach(acquire, { kind: 'Acquired', lease: { scope: 's', holder: 'h', token: 1, acquiredAt: 0 } })).toMatch(/not the port's shape of Acquired: lease\.expiresAt: /);
    expect(contractBreach(acquire, { kind: 'Acquired', lease: { scope: 's', holder: 'h', token: 1, acquiredAt: 0, expiresAt: 100 } })).toBeNull();
  });
});
