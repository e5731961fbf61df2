// intent-transition-unlocked-read — seed 000 §59–§61 (effect intents: a planned effect moves
// through its states once), §72 ("SELECT ... FOR UPDATE where appropriate"). Source: a state
// machine row read, checked and written without a row lock, the shape of seed 002's checks that do
// not bind to what they observed.
//
// The real TransitionIntent locks the intent's row (SELECT ... FOR UPDATE) and checks the
// transition against the state it read under the lock (record-commands.ts). This one reads the
// row without the lock. Run alone, it decides as the real store does. Two transitions of one
// intent running at once both start from the state they read: both are told Transitioned, though
// the second is not a transition the first one's state allows, and the intent ends in whichever
// state was written last.

import type { TransitionIntentCommand } from '../../model/commands.ts';
import type { TransitionIntentResult } from '../../model/outcomes.ts';
import { INTENT_TRANSITIONS } from '../../model/effect-intent.ts';
import { intentOf, type IntentRow } from '../../adapters/postgres/record-commands.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function transitionIntent(tx: Tx, command: TransitionIntentCommand): Promise<TransitionIntentResult> {
  const id = encodeText(command.intentId);
  // THE BUG: a plain read, no FOR UPDATE: another transition may move the intent meanwhile.
  const [row] = await tx.query<IntentRow>('SELECT * FROM effect_intent WHERE intent_id = $1', [id]);
  if (row === undefined) return { kind: 'NotFound' };
  const intent = intentOf(row);
  if (!INTENT_TRANSITIONS[intent.state].includes(command.to)) return { kind: 'InvalidTransition', from: intent.state, to: command.to };
  await tx.query('UPDATE effect_intent SET state = $2 WHERE intent_id = $1', [id, command.to]);
  return { kind: 'Transitioned', intent: { ...intent, state: command.to } };
}

/** The command bodies it replaces. */
export const intentTransitionUnlockedRead: CommandBodies = { TransitionIntent: transitionIntent };
