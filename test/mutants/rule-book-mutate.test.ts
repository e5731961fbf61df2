// seed 000 §66–§70 (model/SEMANTICS.md "Protected mutation"): the rule-book Mutate that store mutants use answers exactly like the reference model on every state the reference can reach.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleBookMutate } from '../../mutants/store/rule-book-mutate.ts';
import type { Command, MutateCommand } from '../../model/commands.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';

const holder = fc.constantFrom('a', 'b', 'c');
const scope = fc.constantFrom('env:1', 'env:2');
const token = fc.integer({ min: 0, max: 6 });
const mutateCommand: fc.Arbitrary<MutateCommand> = fc.record({
  kind: fc.constant('Mutate' as const),
  scope,
  aggregate: fc.constantFrom('x', 'y'),
  holder,
  token,
  expectedVersion: fc.integer({ min: 0, max: 4 }),
});
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('Acquire' as const), scope, holder, ttlMs: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('Renew' as const), scope, holder, expectedToken: token, ttlMs: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('Release' as const), scope, holder, token }),
  fc.record({ kind: fc.constant('AdvanceRoleEpoch' as const), role: fc.constant('scheduler'), epoch: fc.integer({ min: 0, max: 3 }) }),
  mutateCommand,
  mutateCommand.map((m) => ({ ...m, guard: { role: 'scheduler', epoch: 1 } })),
);

describe('rule-book Mutate', () => {
  it('property: equals the reference Mutate, outcome and state, after any reachable history', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(command, fc.integer({ min: 0, max: 200 })), { maxLength: 40 }), (script) => {
        let state: ModelState = initialState();
        let now = 0;
        for (const [next, advanceMs] of script) {
          now += advanceMs;
          const reference = step(state, next, now);
          if (next.kind === 'Mutate') expect(ruleBookMutate(state, next, now)).toEqual(reference);
          state = reference.state;
        }
      }),
      { numRuns: 300 },
    );
  });
});
