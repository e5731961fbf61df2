// A race schedule as a history for the checkers of concurrent histories (campaign/stress/checks/):
// the setup's calls one after another, each answered as the reference model answers it (the
// session checked the store's answers against it), then the case's calls, each invoked at its
// arrival and all completed after the last arrival, since they ran at once. The checkers judge
// the outcomes' own store times (tokens, expiries, capacities, idempotency records), so a
// schedule that gives two owners one scope, a lower token after a higher one, a pool over its
// capacity or a key two first requests is named by the rule it breaks. The case's answers read in
// the model's tokens where the store's fences are not integers (campaign/fences/model-fences.ts).

import type { SettledCall } from '../../adapters/interleaving.ts';
import { StoreUnavailableError } from '../../adapters/port.ts';
import type { Outcome } from '../../model/outcomes.ts';
import { inModelTokens, type ModelFences } from '../fences/model-fences.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { StressHistory, StressOp } from '../stress/history.ts';
import type { RaceCase } from './space.ts';

/** How long after its invocation a setup call completes, in ms: before the next one (1 ms later) starts. */
const SETUP_CALL_MS = 0.5;

export function raceHistory(raceCase: RaceCase, sessions: ReadonlyArray<string>, settled: ReadonlyArray<SettledCall>, fences?: ModelFences): StressHistory {
  const ops: StressOp[] = [];
  let state = initialState(raceCase.built.model.renewal);
  for (const { command, at } of raceCase.built.setup) {
    const serial = step(state, command, at);
    state = serial.state;
    ops.push({ id: ops.length, client: 'setup', command, invokedAt: at, completedAt: at + SETUP_CALL_MS, status: 'ok', outcome: serial.outcome as Outcome });
  }
  const completedAt = Math.max(...raceCase.arrivals) + SETUP_CALL_MS;
  const first = ops.length;
  raceCase.commands.forEach((command, i) => {
    ops.push({ id: first + i, client: sessions[i]!, command, invokedAt: raceCase.arrivals[i]!, completedAt, status: 'unknown' });
  });
  for (const { call, result } of settled) {
    const op = ops[first + call]!;
    if (result.status === 'fulfilled') {
      op.status = 'ok';
      op.outcome = (fences === undefined ? result.value : inModelTokens(fences, raceCase.built.model, op.command, result.value)) as Outcome;
    } else {
      op.status = result.reason instanceof StoreUnavailableError ? 'fail' : 'error';
      op.error = String(result.reason);
    }
  }
  return ops;
}
