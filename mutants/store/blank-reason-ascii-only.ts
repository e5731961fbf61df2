// blank-reason-ascii-only — seed 000 §200–§206, §290 (a force release is privileged, gives a
// reason and is audited). The store judges a reason blank as SQL's `btrim(reason) = ''` does,
// stripping the ASCII space only, where the rule book strips what JavaScript's trim strips
// (model/SEMANTICS.md clarification 14): a reason of tabs, line breaks, no-break or ideographic
// spaces passes as a reason, and the lease is force-released with an audit record that says
// nothing. The check's old literals ('', ' ') are blank in both readings; only white space of
// another kind shows it.

import type { ForceReleaseCommand } from '../../model/commands.ts';
import { appendTo, logItems, type AppendLog } from '../../model/persistent.ts';
import type { Tombstone } from '../../model/outcomes.ts';
import { modelMutant } from './model-store.ts';

/** Blank by the broken reading: nothing but ASCII spaces. */
const asciiBlank = (reason: string): boolean => reason.replace(/^ +| +$/g, '') === '';

/** The log with its last record's reason put back to `reason`. */
function withLastReason(log: AppendLog<Tombstone> | null, reason: string): AppendLog<Tombstone> | null {
  const items = logItems(log);
  return items.reduce<AppendLog<Tombstone> | null>((out, t, i) => appendTo(out, i === items.length - 1 ? { ...t, reason } : t), null);
}

export const blankReasonAsciiOnly = modelMutant('blank-reason-ascii-only', ['ForceRelease'], (state, command: ForceReleaseCommand, now, reference) => {
  if (!command.privileged || asciiBlank(command.reason) || command.reason.trim() !== '') return reference(state, command, now);
  // THE BUG: a reason blank only by Unicode white space counts as given; it is recorded as sent.
  const released = reference(state, { ...command, reason: `${command.reason}.` }, now);
  if (released.outcome.kind !== 'ForceReleased') return released;
  const tombstone = { ...released.outcome.tombstone, reason: command.reason };
  return { state: { ...released.state, tombstones: withLastReason(released.state.tombstones, command.reason) }, outcome: { ...released.outcome, tombstone } };
});
