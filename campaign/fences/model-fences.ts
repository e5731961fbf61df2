// A store set beside the reference model, call by call, by the kind of fence it declares
// (capabilities.fencing). The command-level check, the race stage's serial orders and the
// conformance suite compare a store's answers with the model's through this, so that each judges
// what the store's fences allow and says what it cannot judge:
//
// - 'integer': the answers as they are, outcome for outcome.
// - 'opaque': the store runs behind the simulator's translation (sim/fence-ids.ts) and its fences
//   are named by the model's tokens (fence-names.ts): equality and reuse are judged, order is not.
// - 'none': no fence is judged. Fence fields are left out of both answers, and a command whose
//   answer turns on the fence it carries may be read as carrying its holder's (fenceless-readings.ts).
//
// Each reading returns the fences to go on with, so that a caller that keeps several model
// states (a snapshot, the serial orders of a race) keeps the naming that goes with each.

import type { Command } from '../../model/commands.ts';
import { sameData } from '../../model/data-equal.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { OUTCOME_FENCES, type FenceIds, type FencingKind } from '../../sim/fence-ids.ts';
import { FenceNames } from './fence-names.ts';
import { fencelessReadings } from './fenceless-readings.ts';

/** One way the model reads a call the store answered. */
export interface Reading {
  /** The model's state after the call so read. */
  readonly state: ModelState;
  /** The fences to go on with after it. */
  readonly fences: ModelFences;
  /** The model's own answer. */
  readonly outcome: unknown;
  /** The two answers as compared. */
  readonly expected: unknown;
  readonly actual: unknown;
  readonly agrees: boolean;
  /** What the comparison left out, in words. */
  readonly notJudged: ReadonlyArray<string>;
  /** A fence the store gave a new lease that it had shown for another (the rule broken is fencing-monotonic). */
  readonly reused: string | null;
  /** The reading is the command as sent (false: read with the fence a store without fences acts on). */
  readonly asSent: boolean;
}

export interface ModelFences {
  readonly kind: FencingKind;
  /** `command`, as the model has it, as the store is sent it. */
  toStore<C extends Command>(state: ModelState, command: C): C;
  /** Every way the model reads `command` from `state` at `now` when the store answered `actual`; the command as sent first. */
  read(state: ModelState, command: Command, now: number, actual: unknown): ReadonlyArray<Reading>;
  /** Two fences with one key read every later answer alike. */
  key(): string;
}

/** The scope a command's fences belong to: its own, or its job's. */
export function scopeOf(state: ModelState, command: Command): string | undefined {
  const fields = command as unknown as { scope?: unknown; jobId?: unknown };
  if (typeof fields.scope === 'string') return fields.scope;
  return typeof fields.jobId === 'string' ? state.jobs.get(fields.jobId)?.scope : undefined;
}

/** The fences for a store of `kind`; `ids` is the translation it runs behind (needed for 'opaque'). */
export function modelFences(kind: FencingKind, ids: FenceIds | null): ModelFences {
  if (kind === 'integer') return INTEGER;
  if (kind === 'none') return NONE;
  if (ids === null) throw new Error('a store with opaque fences is compared through the translation it runs behind (sim/fence-ids.ts)');
  return new OpaqueFences(FenceNames.over(ids));
}

const INTEGER: ModelFences = {
  kind: 'integer',
  toStore: (_state, command) => command,
  read(state, command, now, actual) {
    const { state: next, outcome } = step(state, command, now);
    return [{ state: next, fences: INTEGER, outcome, expected: outcome, actual, agrees: sameData(actual, outcome), notJudged: [], reused: null, asSent: true }];
  },
  key: () => '',
};

class OpaqueFences implements ModelFences {
  readonly kind = 'opaque';

  constructor(private readonly names: FenceNames) {}

  toStore<C extends Command>(state: ModelState, command: C): C {
    return this.names.toStore(command, scopeOf(state, command));
  }

  read(state: ModelState, command: Command, now: number, actual: unknown): ReadonlyArray<Reading> {
    const { state: next, outcome } = step(state, command, now);
    const names = this.names.copy();
    const named = names.compare(scopeOf(state, command), actual, outcome);
    const agrees = sameData(named.actual, named.expected);
    return [{ state: next, fences: new OpaqueFences(names), outcome, expected: named.expected, actual: named.actual, agrees, notJudged: named.notJudged, reused: named.reused, asSent: true }];
  }

  key(): string {
    return this.names.key();
  }

  /** A store answer in the model's tokens, pairing nothing (`forReader`: a fence with no token named as the store's). */
  inModelTokens(state: ModelState, command: Command, actual: unknown, forReader: boolean): unknown {
    const scope = scopeOf(state, command);
    return forReader ? this.names.described(scope, actual) : this.names.inModelTokens(scope, actual);
  }
}

/** A store answer in the model's tokens, for the history checkers, where fences name the store's by them; the answer itself otherwise. */
export function inModelTokens(fences: ModelFences, state: ModelState, command: Command, actual: unknown): unknown {
  return fences instanceof OpaqueFences ? fences.inModelTokens(state, command, actual, false) : actual;
}

/** A store answer as a report shows it: in the model's tokens where they name the store's fences, the store's own fence where none does. */
export function describedAnswer(fences: ModelFences, state: ModelState, command: Command, actual: unknown): unknown {
  return fences instanceof OpaqueFences ? fences.inModelTokens(state, command, actual, true) : actual;
}

const FENCE_VALUES = 'fence values (the store has none)';

const NONE: ModelFences = {
  kind: 'none',
  toStore: (_state, command) => command,
  read(state, command, now, actual) {
    const stripped = withoutFences(actual);
    return fencelessReadings(state, command).map((reading, i) => {
      const { state: next, outcome } = step(state, reading, now);
      const expected = withoutFences(outcome);
      const notJudged = [...(sameData(expected, outcome) ? [] : [FENCE_VALUES]), ...(i === 0 ? [] : [`the fence ${command.kind} carried (read as that of the lease it acts on)`])];
      return { state: next, fences: NONE, outcome, expected, actual: stripped, agrees: sameData(stripped, expected), notJudged, reused: null, asSent: i === 0 };
    });
  },
  key: () => '',
};

/** `value` without any field that holds a fence, at any depth. */
function withoutFences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFences);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (!OUTCOME_FENCES.has(key) && key !== 'nextToken') out[key] = withoutFences(field);
  return out;
}
