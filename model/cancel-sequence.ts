// The cancellation sequence of §115–§117 (§289): cancelling a business operation does not release
// its lease before its external effects settle, or a new owner could collide with the old effect.

import { assert } from './assert.ts';
import type { EffectState } from './effect-state.ts';

export interface InFlightIntent {
  readonly intentId: string;
  readonly state: EffectState;
}

export type CancelStep =
  | { readonly kind: 'stop-new-effects' }
  | { readonly kind: 'abandon'; readonly intentId: string }
  | { readonly kind: 'reconcile'; readonly intentId: string }
  | { readonly kind: 'transition-business-state' }
  | { readonly kind: 'release-lease' };

/** An intent whose effect may be under way or may have happened without being observed. */
function needsReconciliation(state: EffectState): boolean {
  return state === 'Started' || state === 'Unknown';
}

/** The ordered steps: stop, abandon what never started, reconcile in-flight effects, transition, release. */
export function cancelSequence(intents: ReadonlyArray<InFlightIntent>): ReadonlyArray<CancelStep> {
  const steps: CancelStep[] = [{ kind: 'stop-new-effects' }];
  for (const intent of intents) if (intent.state === 'Planned') steps.push({ kind: 'abandon', intentId: intent.intentId });
  for (const intent of intents) if (needsReconciliation(intent.state)) steps.push({ kind: 'reconcile', intentId: intent.intentId });
  steps.push({ kind: 'transition-business-state' }, { kind: 'release-lease' });
  assert(steps[steps.length - 1]?.kind === 'release-lease', 'the lease is released last');
  return steps;
}

/** May the lease be released now? Only when no intent of it is still Started or Unknown. */
export function mayReleaseLease(intents: ReadonlyArray<InFlightIntent>): boolean {
  return !intents.some((intent) => needsReconciliation(intent.state));
}
