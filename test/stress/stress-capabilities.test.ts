// `testbed stress` on a store that declares only some command kinds (capabilities.commands): it is
// sent nothing else, neither in its setup nor by the clients, and what it has is still checked: a
// lease-only store passes, and the same store with a write that ignores the fencing token is caught.

import { describe, expect, test } from 'vitest';
import type { Store } from '../../adapters/port.ts';
import { runStress } from '../../campaign/stress/index.ts';
import { wallNow } from '../../campaign/stress/history.ts';
import type { Command } from '../../model/commands.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';

const LEASE_ONLY: ReadonlyArray<Command['kind']> = ['Acquire', 'Renew', 'Release', 'Mutate'];

/** The reference state machine behind an async call, declaring lease commands only; `unfenced` writes under any token. */
function leaseStore(unfenced: boolean): Store {
  let state = initialState();
  return {
    name: 'lease-only',
    capabilities: { commands: LEASE_ONLY },
    async execute<C extends Command>(command: C): Promise<OutcomeOf<C>> {
      await new Promise((resolve) => setImmediate(resolve));
      if (!LEASE_ONLY.includes(command.kind)) throw new Error(`sent ${command.kind}, which it does not declare`);
      let sent: Command = command;
      if (unfenced && command.kind === 'Mutate') {
        const live = state.leases.get(command.scope);
        if (live !== undefined) sent = { ...command, token: live.token, holder: live.holder };
      }
      // The history's wall clock, floored as the clock stress hands a store (Date.now() may drift from it).
      const result = step(state, sent, Math.floor(wallNow()));
      state = result.state;
      const outcome = result.outcome as { kind: string; token?: number };
      return (outcome.kind === 'Accepted' ? { ...outcome, token: (command as { token: number }).token } : outcome) as OutcomeOf<C>;
    },
    async close() {},
  };
}

const stress = (store: Store, seed: number) =>
  runStress({ clients: 8, durationMs: 1_000, seed, timing: 'real', open: async (clients) => ({ stores: Array.from({ length: clients }, () => store), close: async () => {} }) });

describe('stress on a lease-only store', () => {
  test('sends only the kinds it declares, and finds nothing wrong with a correct one', async () => {
    const result = await stress(leaseStore(false), 1);
    expect(new Set(result.history.map((op) => op.command.kind))).toEqual(new Set(LEASE_ONLY));
    expect(result.byStatus.error).toBe(0);
    expect(result.operations).toBeGreaterThan(100);
    expect(result.violations).toEqual([]);
  }, 30_000);

  test('catches its write that ignores the fencing token', async () => {
    const seen: string[] = [];
    for (let seed = 1; seed <= 6; seed++) {
      const result = await stress(leaseStore(true), seed);
      if (result.violations.some((v) => v.invariant === 'accepted-writes')) return;
      seen.push(`seed ${seed}: ${result.violations.map((v) => v.invariant).join(', ') || 'none'}`);
    }
    expect.fail(`not caught: ${seen.join('; ')}`);
  }, 60_000);
});
