// External-effect intents (§59–§65): persisted before the provider call, so that after a crash or
// a timeout the intent says what may have happened. Unknown is first-class and leads only to
// reconciliation, never straight back to Started.

import type { PlanIntentCommand, TransitionIntentCommand } from './commands.ts';
import type { EffectState } from './effect-state.ts';
import type { EffectIntent, PlanIntentResult, TransitionIntentResult } from './outcomes.ts';
import { mapWith } from './persistent.ts';
import type { ModelState, Transition } from './state.ts';

export const INTENT_TRANSITIONS: Readonly<Record<EffectState, ReadonlyArray<EffectState>>> = {
  Planned: ['Started', 'Failed'],
  Started: ['Succeeded', 'Failed', 'Unknown'],
  Succeeded: ['Reconciled'],
  Failed: ['Reconciled'],
  Unknown: ['Reconciled'],
  Reconciled: [],
};

export function planIntent(state: ModelState, command: PlanIntentCommand): Transition<PlanIntentResult> {
  const existing = state.intents.get(command.intentId);
  if (existing !== undefined) return { state, outcome: { kind: 'Duplicate', intent: existing } };
  const intent: EffectIntent = {
    intentId: command.intentId,
    scope: command.scope,
    token: command.token,
    operation: command.operation,
    retrySafety: command.retrySafety,
    state: 'Planned',
  };
  return { state: { ...state, intents: mapWith(state.intents, command.intentId, intent) }, outcome: { kind: 'Planned', intent } };
}

export function transitionIntent(state: ModelState, command: TransitionIntentCommand): Transition<TransitionIntentResult> {
  const intent = state.intents.get(command.intentId);
  if (intent === undefined) return { state, outcome: { kind: 'NotFound' } };
  if (!INTENT_TRANSITIONS[intent.state].includes(command.to)) {
    return { state, outcome: { kind: 'InvalidTransition', from: intent.state, to: command.to } };
  }
  const updated: EffectIntent = { ...intent, state: command.to };
  return { state: { ...state, intents: mapWith(state.intents, command.intentId, updated) }, outcome: { kind: 'Transitioned', intent: updated } };
}
