// How a store without fences (capabilities.fencing 'none') can have read a command that carries
// one. The store is sent the model's tokens and may ignore them: all it can go by is the lease its
// holder has on the scope (or, for a command that names no holder, the scope's lease). So a
// command is read either as sent or as carrying that lease's fence; where the two give the same
// answer and state, the fence did not matter, and where they differ, the rule that turned on the
// fence cannot be judged for such a store, and either answer is taken.

import type { Command } from '../../model/commands.ts';
import type { ModelState } from '../../model/state.ts';

/** The fence a store without fences acts on for `command`: that of the lease its holder has, or of the scope's lease; null when the command carries none or the same one. */
function fenceActedOn(state: ModelState, command: Command): number | null {
  switch (command.kind) {
    case 'Renew':
      return differs(command.expectedToken, holdersToken(state, command.scope, command.holder));
    case 'Release':
    case 'Handoff':
    case 'Mutate':
      return differs(command.token, holdersToken(state, command.scope, command.holder));
    case 'ForceRelease':
      return differs(command.expectedToken, state.leases.get(command.scope)?.token);
    case 'PlanIntent':
      return differs(command.token, state.leases.get(command.scope)?.token);
    case 'FinishJob':
    case 'ReturnJob':
      return differs(command.token, state.jobs.get(command.jobId)?.attemptToken);
    default:
      return null;
  }
}

function holdersToken(state: ModelState, scope: string, holder: string): number | undefined {
  const row = state.leases.get(scope);
  return row !== undefined && row.holder === holder ? row.token : undefined;
}

function differs(sent: number, acted: number | undefined): number | null {
  return acted === undefined || acted === sent ? null : acted;
}

/** `command` as a store without fences may have read it: as sent, and, when its fence is not the one the store acts on, with that one. */
export function fencelessReadings(state: ModelState, command: Command): ReadonlyArray<Command> {
  const acted = fenceActedOn(state, command);
  if (acted === null) return [command];
  const field = command.kind === 'Renew' || command.kind === 'ForceRelease' ? 'expectedToken' : 'token';
  return [command, { ...command, [field]: acted } as Command];
}
