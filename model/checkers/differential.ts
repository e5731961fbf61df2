// differential (docs/ARCHITECTURE.md "History and checkers"; seed 000 §315 "Postgres/Stoolap implementations
// preserve same semantic model"): given the same sequence of store commands, a candidate store's
// outcomes deep-equal the reference model's, operation by operation. Controller-level operations,
// faults and ground truth are not compared: they belong to the run, not to the store.

import { sameData } from '../data-equal.ts';
import type { History } from '../history.ts';
import { COMMAND_KINDS } from '../outcome-kinds.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { pairOperations, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'differential';
const REPORTED_DIFFERENCES = 5;

const STORE_KINDS: ReadonlySet<string> = new Set<string>(COMMAND_KINDS);

function storeCommands(history: History): ReadonlyArray<Operation> {
  return pairOperations(history).filter((op) => STORE_KINDS.has(op.f));
}

function answer(op: Operation): unknown {
  return op.completion === null ? { pending: true } : { type: op.completion.type, value: op.completion.type === 'ok' ? op.completion.value : undefined };
}

export function differential(reference: History, candidate: History): Verdict {
  const expected = storeCommands(reference);
  const actual = storeCommands(candidate);
  const length = Math.min(expected.length, actual.length);
  const violations: Violation[] = [];
  for (let n = 0; n < length; n += 1) {
    const want = expected[n];
    const got = actual[n];
    if (want === undefined || got === undefined) break;
    if (!sameData(want.invoke.value, got.invoke.value)) {
      // Different command sequences cannot be compared: the verdict is undecided, not a pass.
      return {
        valid: 'unknown',
        violations: [violation(INVARIANT, `operation ${n + 1} differs in its command: reference ${JSON.stringify(want.invoke.value)} (#${want.invoke.index}), candidate ${JSON.stringify(got.invoke.value)} (#${got.invoke.index})`, [got.invoke.index])],
      };
    }
    if (sameData(answer(want), answer(got))) continue;
    if (violations.length < REPORTED_DIFFERENCES) {
      violations.push(
        violation(INVARIANT, `operation ${n + 1} (${want.f} by ${got.process}): reference answered ${JSON.stringify(answer(want))}, candidate ${JSON.stringify(answer(got))}`, [got.invoke.index, ...(got.completion === null ? [] : [got.completion.index])]),
      );
    }
  }
  if (expected.length !== actual.length && violations.length < REPORTED_DIFFERENCES) {
    violations.push(violation(INVARIANT, `the reference has ${expected.length} store operations, the candidate ${actual.length}`, []));
  }
  return verdictOf(violations);
}
