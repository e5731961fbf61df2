// The concrete command of each kind a race case runs, chosen by one rule for every kind: among a
// seeded sample of the check's templates (campaign/check/command-arbitraries.ts), aimed at one
// scope (multi-scope commands: overlapping scopes) and filled from the reference state at the
// time the call arrives, the first that would change the state if it ran alone, made by another
// actor than the commands already in the case (another holder or owner, or a new permit,
// reservation, waiter or intent of its own) on the same things (role, job, aggregate, key, ...).
// Two actors' commands on one thing that each change the state alone, and whose two serial orders
// give different answers or states (they conflict), are those whose meeting can go wrong; the
// picker takes the first such command, failing that one that does not conflict, then another
// actor on other things; a command that changes nothing alone is taken only when its kind has
// none that does in this state. Each case
// is also tried with the same actor again (CaseActors), where that gives other answers.

import fc from 'fast-check';
import type { Command, CommandKind } from '../../model/commands.ts';
import { sameData } from '../../model/data-equal.ts';
import type { ModelState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { sameState } from '../../sim/state-equal.ts';
import { commandArbitrary } from '../check/command-arbitraries.ts';
import { resolveCommand } from '../check/resolve.ts';
import { LEASE_SCOPES } from '../check/world.ts';

/** The scope a case aims at. */
export const RACE_SCOPE = LEASE_SCOPES[0]!;
/** Templates sampled per kind and slot. */
const SAMPLES = 48;

/** The template aimed at RACE_SCOPE: a lease scope becomes it; a scope list gets it first. */
function aimed(command: Command): Command {
  const record = command as unknown as Record<string, unknown>;
  if (typeof record.scope === 'string' && LEASE_SCOPES.includes(record.scope)) return { ...command, scope: RACE_SCOPE } as Command;
  if (Array.isArray(record.scopes)) {
    const scopes = record.scopes as string[];
    const rest = scopes.filter((s) => s !== RACE_SCOPE);
    return { ...command, scopes: [RACE_SCOPE, ...(rest.length > 0 ? rest : [LEASE_SCOPES[1]!])] } as Command;
  }
  return command;
}

/**
 * Whom a case's later calls come from: `rival`, other actors than the earlier calls'; `same`, the
 * same actor again (a retry, a duplicate request, one holder's two processes).
 */
export type CaseActors = 'rival' | 'same';
export const CASE_ACTORS: ReadonlyArray<CaseActors> = ['rival', 'same'];

/** The command of `kind` for slot `slot` of a case, arriving at `at` in `state`, unlike `others`. */
export function pickCommand(kind: CommandKind, state: ModelState, at: number, slot: number, others: ReadonlyArray<Command>, actors: CaseActors = 'rival'): Command {
  const templates = fc.sample(commandArbitrary(kind), { seed: 1 + slot, numRuns: SAMPLES });
  const candidates = templates.map((t) => resolveCommand(state, aimed(t), at));
  // The same actor may send the very same command again (a retry, a duplicate); another never does.
  const fresh = actors === 'same' ? candidates : candidates.filter((c) => !others.some((o) => sameData(o, c)));
  const pool = fresh.length > 0 ? fresh : candidates;
  const changing = pool.filter((c) => changes(state, c, at));
  const rivals = (c: Command): boolean => others.every((o) => actorsDiffer(c, o));
  const meets = (c: Command): boolean => rivals(c) && others.every((o) => resourcesShared(c, o));
  const again = (c: Command): boolean => !rivals(c) && others.every((o) => resourcesShared(c, o));
  // Conflicting with an earlier call: the two serial orders answer differently or leave
  // different states, so which went first matters, and a race can show.
  const conflicting = (c: Command): boolean => others.some((o) => orderMatters(state, at, o, c));
  const wanted = actors === 'same' ? [again, meets] : [meets, rivals];
  for (const rule of wanted) {
    const found = changing.find((c) => rule(c) && conflicting(c)) ?? null;
    if (found !== null) return found;
  }
  for (const rule of wanted) {
    const found = changing.find(rule) ?? null;
    if (found !== null) return found;
  }
  return changing[0] ?? pool.find(rivals) ?? pool[0]!;
}

/** Whether `a` then `b` and `b` then `a`, from `state` at `at`, differ in an answer or in the state they leave. */
function orderMatters(state: ModelState, at: number, a: Command, b: Command): boolean {
  try {
    const ab1 = step(state, a, at);
    const ab2 = step(ab1.state, b, at);
    const ba1 = step(state, b, at);
    const ba2 = step(ba1.state, a, at);
    return !sameData(ab1.outcome, ba2.outcome) || !sameData(ab2.outcome, ba1.outcome) || !sameState(ab2.state, ba2.state);
  } catch {
    return false;
  }
}

/** Fields naming who acts, in every kind. */
const ACTOR_FIELDS = ['holder', 'owner', 'newHolder'] as const;
/** Per kind, the field naming the new thing a command creates: two creators are two actors. */
const CREATES: Partial<Record<CommandKind, string>> = { AcquirePermit: 'permitId', Reserve: 'reservationId', Enqueue: 'waiterId', PlanIntent: 'intentId' };
/** Fields naming a thing that exists (a role, a job, an aggregate, a key, a reservation or permit to end). */
const RESOURCE_FIELDS = ['role', 'jobId', 'aggregate', 'tenant', 'operation', 'subject', 'key', 'reservationId', 'permitId', 'waiterId', 'intentId'] as const;

function fields(command: Command): Record<string, unknown> {
  return command as unknown as Record<string, unknown>;
}

function actorsDiffer(a: Command, b: Command): boolean {
  const x = fields(a);
  const y = fields(b);
  const created = CREATES[a.kind] !== undefined && CREATES[a.kind] === CREATES[b.kind] ? [CREATES[a.kind]!] : [];
  return [...ACTOR_FIELDS, ...created].every((field) => x[field] === undefined || y[field] === undefined || x[field] !== y[field]);
}

/** Whether two commands name the same existing things wherever both name one. */
function resourcesShared(a: Command, b: Command): boolean {
  const x = fields(a);
  const y = fields(b);
  return RESOURCE_FIELDS.every((field) => field === CREATES[a.kind] || field === CREATES[b.kind] || x[field] === undefined || y[field] === undefined || x[field] === y[field]);
}

/** Whether `command` takes effect: it changes the state, or it is a Renew granted by a store whose renewals only confirm (a confirmation changes nothing, and is what such a Renew does). */
function changes(state: ModelState, command: Command, at: number): boolean {
  try {
    const next = step(state, command, at);
    return !sameState(next.state, state) || (state.renewal === 'confirms' && next.outcome.kind === 'Renewed');
  } catch {
    return false;
  }
}
