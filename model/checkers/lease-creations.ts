// The commands that create a lease: Acquire, and DispatchJob, which creates a job's lease and marks
// the job in one transaction (model/jobs.ts). Every checker that judges who created a lease, under
// which guard, reads them through here, so a lease created by a dispatch is judged as one created
// by Acquire.

import type { RoleGuard } from '../commands.ts';
import type { Lease } from '../outcomes.ts';
import { storeOps, type Operation } from './operations.ts';

/** The kinds of the commands that create a lease. */
export const LEASE_CREATING: ReadonlySet<string> = new Set(['Acquire', 'DispatchJob']);

export interface LeaseCreation {
  readonly op: Operation;
  readonly kind: 'Acquire' | 'DispatchJob';
  /** The scope, where the history shows it (a dispatch's: its job's, from the job's submission). */
  readonly scope: string | null;
  readonly holder: string;
  readonly guard: RoleGuard | undefined;
  /** The lease granted, when the answer was a grant. */
  readonly granted: Lease | null;
  /** The live lease a Busy answer named. */
  readonly busy: { readonly holder: string; readonly token: number } | null;
  /** The answer's kind (null: no answer). */
  readonly outcome: string | null;
}

/** Each job's scope, from the SubmitJob commands. */
export function jobScopes(operations: ReadonlyArray<Operation>): ReadonlyMap<string, string> {
  const scopes = new Map<string, string>();
  for (const { command } of storeOps(operations, 'SubmitJob')) if (!scopes.has(command.jobId)) scopes.set(command.jobId, command.scope);
  return scopes;
}

export function leaseCreations(operations: ReadonlyArray<Operation>): ReadonlyArray<LeaseCreation> {
  const found: LeaseCreation[] = [];
  for (const { op, command, outcome } of storeOps(operations, 'Acquire')) {
    const busy = outcome?.kind === 'Busy' ? { holder: outcome.holder, token: outcome.token } : null;
    found.push({ op, kind: 'Acquire', scope: command.scope, holder: command.holder, guard: command.guard, granted: outcome?.kind === 'Acquired' ? outcome.lease : null, busy, outcome: outcome?.kind ?? null });
  }
  const scopes = jobScopes(operations);
  for (const { op, command, outcome } of storeOps(operations, 'DispatchJob')) {
    const granted = outcome?.kind === 'JobDispatched' ? outcome.lease : null;
    const busy = outcome?.kind === 'Busy' ? { holder: outcome.holder, token: outcome.token } : null;
    const scope = granted?.scope ?? scopes.get(command.jobId) ?? null;
    found.push({ op, kind: 'DispatchJob', scope, holder: command.holder, guard: command.guard, granted, busy, outcome: outcome?.kind ?? null });
  }
  return found.sort((a, b) => a.op.invoke.index - b.op.invoke.index);
}
