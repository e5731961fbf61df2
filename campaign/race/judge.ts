// Whether one schedule of a race case went right: every answer is one the port allows; the
// checkers of concurrent histories pass on the schedule's history (race-history.ts: one owner a
// scope, rising tokens, capacity kept, one first request a key, ...) where every command in it is
// of a kind they follow (JUDGED_KINDS); the answers are those of
// some serial order of the same commands from the same state in the reference model
// (linearizability, judged by sim/batch-order.ts, which also lets each call read any store time
// it ran through); and what the store holds afterwards (Inspect) is what one of those serial
// orders leaves behind. A store whose fences are not integers is read through its fences
// (campaign/fences/model-fences.ts) in each serial order, and the history checkers judge what its
// fences allow (none of them for a store without fences: their rules read fences).

import type { SettledCall } from '../../adapters/interleaving.ts';
import { StoreLostError, StoreUnavailableError } from '../../adapters/port.ts';
import type { Command } from '../../model/commands.ts';
import type { ModelState } from '../../model/state.ts';
import { explainBatchWith, type BatchEntry, type CallReader } from '../../sim/batch-order.ts';
import type { FencingKind } from '../../sim/fence-ids.ts';
import { describedAnswer, modelFences, type ModelFences } from '../fences/model-fences.ts';
import { contractBreach } from '../../sim/port-contract.ts';
import type { StressHistory } from '../stress/history.ts';
import { checkStressHistory, JUDGED_KINDS } from '../stress/checks/index.ts';

export interface RaceVerdict {
  readonly kind: 'pass' | 'fail' | 'undecided';
  /** The rule broken (fail): one of these, or the invariant a history checker names. */
  readonly rule?: 'linearizability' | 'final-state' | 'port-contract' | 'serial' | (string & {});
  readonly message?: string;
}

/** What no schedule of a store with `fencing` is judged on (nothing for integer fences). */
export function notJudgedBy(fencing: FencingKind): string[] {
  if (fencing === 'opaque') return ["the order of the store's fences (answers compared by equality; the history checkers judge reuse, not order)", 'a ForceReleased nextToken, and a burned token'];
  if (fencing === 'integer') return [];
  return ['fence values, and which fence a call acted on where its answer turned on it (read either way)', 'the history checkers, whose rules read fences: judged by the reference model alone'];
}

export function describeCall(session: string, command: Command): string {
  return `${session} ${command.kind} ${JSON.stringify(command)}`;
}

/**
 * The verdict of one schedule; `view` is the store's Inspect answer after the batch, at `end`;
 * `history` is the schedule's history (race-history.ts).
 */
/** A call read through the fences of its serial order: each reading that agrees, with the fences it goes on with. */
const throughFences: CallReader<ModelFences> = (state, fences, { command, actual }, at) =>
  fences.read(state, command, at, actual).flatMap((reading) => (reading.agrees ? [{ state: reading.state, context: reading.fences }] : []));

export function judgeSchedule(
  start: ModelState,
  calls: ReadonlyArray<{ readonly session: string; readonly command: Command }>,
  settled: ReadonlyArray<SettledCall>,
  view: unknown,
  end: number,
  history: StressHistory,
  fences: ModelFences = modelFences('integer', null),
): RaceVerdict {
  const entries: BatchEntry[] = [];
  for (const { call, result, storeTimes } of settled) {
    const { session, command } = calls[call]!;
    if (result.status === 'rejected') {
      // Not applied, as the store says: no serial order needs it.
      if (result.reason instanceof StoreUnavailableError) continue;
      // The store can no longer be called (its process ended, a call never settled): no verdict.
      if (result.reason instanceof StoreLostError) return { kind: 'undecided', message: result.reason.message };
      const why = result.reason instanceof Error ? `${result.reason.name}: ${result.reason.message}` : String(result.reason);
      return { kind: 'fail', rule: 'port-contract', message: `${describeCall(session, command)} threw ${why.split('\n')[0]}` };
    }
    const breach = contractBreach(command, result.value);
    if (breach !== null) return { kind: 'fail', rule: 'port-contract', message: `${describeCall(session, command)} ${breach}` };
    entries.push({ command, actual: result.value, process: session, storeTimes });
  }
  if (fences.kind !== 'none' && history.every((op) => JUDGED_KINDS.has(op.command.kind))) {
    const checked = checkStressHistory(history, 'store', fences.kind);
    const broken = checked.violations[0];
    if (broken !== undefined) return { kind: 'fail', rule: broken.invariant, message: broken.message };
    if (checked.undecided.length > 0) return { kind: 'undecided', message: `a history checker could not decide: ${checked.undecided[0]!}` };
  }
  const order = explainBatchWith([{ state: start, context: fences }], entries, end, throughFences, (a, b) => a.key() === b.key());
  if (order.kind === 'undecided') return { kind: 'undecided', message: order.why };
  const named = (command: Command, answer: unknown): string => JSON.stringify(describedAnswer(fences, start, command, answer));
  if (order.kind === 'unexplained') {
    const answers = entries.map((e) => `${e.process} ${e.command.kind} answered ${named(e.command, e.actual)}`).join('; ');
    return { kind: 'fail', rule: 'linearizability', message: `no serial order of the calls gives the store's answers: ${answers}` };
  }
  const inspect: Command = { kind: 'Inspect' };
  const readings = order.nodes.map((node) => node.context.read(node.state, inspect, end, view)[0]!);
  if (!readings.some((reading) => reading.agrees)) {
    const { actual, expected } = readings[0]!;
    return { kind: 'fail', rule: 'final-state', message: `the answers fit a serial order, but the store holds ${JSON.stringify(actual)} where that order leaves ${JSON.stringify(expected)}` };
  }
  return { kind: 'pass' };
}
