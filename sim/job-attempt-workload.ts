// A job worker without a scheduler leader (seed 001 §36–§41, §76–§77, §84–§85, §93): each worker
// that is told of a job submits it (submission is idempotent per job id, so the second worker and
// a redelivered submission both find it: JobExists), dispatches an attempt of its own, works for
// the attempt's TTL at most and finishes it. An attempt is bounded by its lease's TTL alone, with
// no renewal: a worker paused past it has been superseded by the next worker's attempt, and its
// FinishJob must be refused (StaleAttempt) — only the latest attempt ends a job. A finish that is
// delivered twice is answered again for the attempt that finished the job.

import type { Fiber, Journal, Sim } from './engine.ts';
import { redelivered } from './redelivery.ts';

export async function jobAttemptJob(sim: Sim, fiber: Fiber, j: Journal): Promise<void> {
  const op = j.op;
  // Every worker of a tenant told of this job names it alike: the job is the aggregate of the scope.
  const jobId = `${op.tenant}/${op.aggregate}`;
  const submitted = await redelivered(sim, fiber, { kind: 'SubmitJob', jobId, scope: op.scope });
  const known = (r: typeof submitted.again) => r?.kind === 'JobSubmitted' || r?.kind === 'JobExists';
  if (!known(submitted.first) && !known(submitted.again)) return;
  const holder = fiber.node.proc;
  const dispatched = await sim.call(fiber, { kind: 'DispatchJob', jobId, holder, ttlMs: op.ttlMs });
  // Busy: another attempt holds the job; NotDispatchable: it is done. Either way this worker has nothing to do.
  if (dispatched?.kind !== 'JobDispatched') return;
  const { lease } = dispatched;
  await sim.sleepLocal(fiber, op.workMs);
  await redelivered(sim, fiber, { kind: 'FinishJob', jobId, token: lease.token });
  await sim.call(fiber, { kind: 'Release', scope: lease.scope, holder, token: lease.token });
}
