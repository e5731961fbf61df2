// role-epoch-read-then-write — seed 001 §92–§95 (scheduler-epoch fencing), §297–§305 (role guards:
// an epoch only rises). Source: a compare-and-set split into a read and a write, the shape of seed
// 002's checks that do not bind to what they observed.
//
// The real AdvanceRoleEpoch upserts the role's row and compares under the row lock that upsert
// takes, and raises the epoch in the same transaction (record-commands.ts). This one reads the
// stored epoch with a plain SELECT, decides, and writes the requested epoch in a later statement
// by role alone. Run alone, it decides as the real store does. Two advances running at once both
// read the old epoch and are both told Advanced; the lower one, written last, moves the epoch
// back below a guard already handed out.

import type { AdvanceRoleEpochCommand } from '../../model/commands.ts';
import type { AdvanceRoleEpochResult } from '../../model/outcomes.ts';
import { encodeText } from '../../adapters/postgres/text-codec.ts';
import type { CommandBodies } from '../../adapters/postgres/store.ts';
import type { Tx } from '../../adapters/postgres/transaction.ts';

async function advanceRoleEpoch(tx: Tx, command: AdvanceRoleEpochCommand): Promise<AdvanceRoleEpochResult> {
  const role = encodeText(command.role);
  // THE BUG: the stored epoch is read without a lock ...
  const [row] = await tx.query<{ epoch: number }>('SELECT epoch FROM role_epoch WHERE role = $1', [role]);
  const current = row?.epoch ?? 0;
  if (!Number.isFinite(command.epoch) || command.epoch < 0 || command.epoch < current) return { kind: 'Fenced', role: command.role, currentEpoch: current };
  // ... and the write, a statement of its own, sets the epoch whatever it has become meanwhile.
  await tx.query('INSERT INTO role_epoch AS r (role, epoch) VALUES ($1, $2) ON CONFLICT (role) DO UPDATE SET epoch = EXCLUDED.epoch', [role, command.epoch]);
  return { kind: 'RoleEpochAdvanced', role: command.role, epoch: command.epoch };
}

/** The command bodies it replaces. */
export const roleEpochReadThenWrite: CommandBodies = { AdvanceRoleEpoch: advanceRoleEpoch };
