// Part of outcome-at-return (seed 000 §157–§160, §224–§225; seed 003): the runtime tells a run to
// stop only for what happened to it. A `cancel-cause` must be borne out by the history before it:
// - `renewal-refused`: a renewal by the run's incarnation, answered between the run's start and the
//   cause, that did not come back Renewed (refused, failed, unavailable);
// - `write-refused`: a fenced write by the incarnation in that span that the store refused (an
//   answer other than Accepted or StaleVersion, which the holder retries);
// - `cancelled`: a user's or a group's cancellation recorded before it;
// - `window-passed`, `unconfirmed`: the lease's local window can pass, or its confirmations come
//   back too late, only once at least half its TTL of true time went by since its grant was asked
//   for (the window is 0.9 of the TTL on a clock at most 10% fast). A lease the history does not
//   show granted to the run is not judged.
// A runtime that stops runs for no reason reports them preempted when nothing preempted them: the
// handler's work is thrown away, and the user is told its lease was lost when it was not.

import type { History, TruthEvent } from '../history.ts';
import { leaseGrants, type LeaseGrant } from './lease-grants.ts';
import { stringField, type Operation } from './operations.ts';

/** Whether `process` belongs to the incarnation that ran `run` (its main fiber, a heartbeat, a wait). */
export function ofRunIncarnation(run: Operation, process: string): boolean {
  const incarnation = run.process.replace(/:run\d+$/, '');
  return process === incarnation || process.startsWith(`${incarnation}:`);
}

/** Why the history does not bear out `cause`, the first cause of `run`; null when it does. */
export function unfoundedCause(history: History, run: Operation, cause: TruthEvent, operations: ReadonlyArray<Operation>): string | null {
  const kind = stringField(cause.value, 'cause');
  const answeredInSpan = (op: Operation) => op.completion !== null && op.completion.index > run.invoke.index && op.completion.index < cause.index && ofRunIncarnation(run, op.process);
  switch (kind) {
    case 'renewal-refused': {
      const refused = operations.some((op) => op.f === 'Renew' && answeredInSpan(op) && !(op.completion!.type === 'ok' && stringField(op.completion!.value, 'kind') === 'Renewed'));
      return refused ? null : 'no renewal of its incarnation came back refused, failed or unavailable since the run began';
    }
    case 'write-refused': {
      const refused = operations.some((op) => op.f === 'Mutate' && answeredInSpan(op) && op.completion!.type === 'ok' && !['Accepted', 'StaleVersion'].includes(stringField(op.completion!.value, 'kind') ?? ''));
      return refused ? null : 'no fenced write of its incarnation was refused since the run began';
    }
    case 'cancelled':
      return operations.some((op) => op.f === 'cancel' && op.invoke.index < cause.index) ? null : 'no cancellation was recorded before it';
    case 'window-passed':
    case 'unconfirmed':
      return tooEarly(history, run, cause);
    default:
      return `the cause ${JSON.stringify(kind)} is none the runtime knows`;
  }
}

/** Why a window cannot have passed yet at `cause`: less than half a TTL since the run's lease was asked for. */
function tooEarly(history: History, run: Operation, cause: TruthEvent): string | null {
  const scope = stringField(run.invoke.value, 'scope');
  const holder = stringField(run.invoke.value, 'holder');
  const token = (run.invoke.value as { token?: unknown } | null)?.token;
  const grant = leaseGrants(history, false).find((g: LeaseGrant) => g.lease.scope === scope && g.lease.token === token && g.lease.holder === holder && g.index < cause.index);
  if (grant === undefined) return null;
  const ttl = grant.lease.expiresAt - grant.lease.acquiredAt;
  const elapsed = cause.time - grant.op.invoke.time;
  if (elapsed * 2 >= ttl) return null;
  return `only ${elapsed} ms went by since its lease was asked for at #${grant.op.invoke.index} (t=${grant.op.invoke.time}), less than half its TTL of ${ttl} ms`;
}
