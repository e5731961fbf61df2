// authority-epoch-per-scope — seed 000 §163–§168 (the federation authority epoch sits above the
// local fencing token; a site failover's new epoch invalidates the old site's writes), §296
// (federation test). The store keeps the authority epoch on each scope's row, as it keeps a
// fencing token, instead of one per domain: Acquire and Mutate compare the guard's epoch with the
// highest one seen on that scope alone. A failover's new epoch, written for the domain, then
// fences only the scopes the new site has used since, and the old site, cut off and still
// running, takes and writes every other scope of the domain under its old epoch.

import type { AcquireCommand, MutateCommand } from '../../model/commands.ts';
import { modelMutant } from './model-store.ts';

/** The command as a store that keys guard epochs by scope reads it. */
function perScope<C extends AcquireCommand | MutateCommand>(command: C): C {
  if (command.guard === undefined) return command;
  return { ...command, guard: { role: `${command.guard.role}@${command.scope}`, epoch: command.guard.epoch } };
}

export const authorityEpochPerScope = modelMutant('authority-epoch-per-scope', ['Acquire', 'Mutate'], (state, command, now, reference) => {
  const next = reference(state, perScope(command), now);
  // A refusal names the role the caller sent, as the correct store's does.
  if (next.outcome.kind !== 'Fenced' || command.guard === undefined) return next;
  return { state: next.state, outcome: { ...next.outcome, role: command.guard.role } };
});
