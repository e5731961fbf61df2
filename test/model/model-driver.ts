// A tiny driver for model tests: holds a state and a virtual clock, and executes commands.

import { expect } from 'vitest';
import type { Command } from '../../model/commands.ts';
import type { OutcomeOf, StoreView } from '../../model/outcomes.ts';
import { initialState, type ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { scopeId, type ScopeRef } from '../../model/scope.ts';

export class ModelDriver {
  state: ModelState = initialState();
  now = 1_000;

  run<C extends Command>(command: C): OutcomeOf<C> {
    const result = step(this.state, command, this.now);
    this.state = result.state;
    return result.outcome;
  }

  advance(ms: number): this {
    this.now += ms;
    return this;
  }

  view(): StoreView {
    return this.run({ kind: 'Inspect' }).view;
  }

  /** Runs a command that must answer `kind`, and returns that outcome narrowed. */
  expect<C extends Command, K extends OutcomeOf<C>['kind']>(command: C, kind: K): Extract<OutcomeOf<C>, { kind: K }> {
    const outcome = this.run(command);
    expect(outcome.kind, `${command.kind} -> ${JSON.stringify(outcome)}`).toBe(kind);
    return outcome as unknown as Extract<OutcomeOf<C>, { kind: K }>;
  }
}

/** A valid scope id for tests; fails the test if the reference is invalid. */
export function scope(name: string, kind: ScopeRef['kind'] = 'DeploymentEnvironment', tenant = 'acme'): string {
  const result = scopeId({ tenant, kind, name });
  if (result.kind !== 'Scope') throw new Error(`invalid test scope ${name}: ${result.reason}`);
  return result.id;
}
