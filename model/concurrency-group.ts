// Workflow concurrency groups (§10–§20, §115–§122, §305) as a pure policy: a group's mode decides
// what a new run gets. CancelPrevious supersedes only runs declared supersedable (preview builds,
// branch CI); a production deploy, release publish or migration is never cancelled by it (§121).
// A superseded run keeps its lease until its effects are reconciled (see cancel-sequence.ts), so
// the new run waits as `next` until every cancelled run has finished.

import { assert } from './assert.ts';

export type ConcurrencyMode = 'AllowParallel' | 'Queue' | 'CancelPrevious' | 'RejectNew';

export interface GroupRun {
  readonly runId: string;
  readonly supersedable: boolean;
  /**
   * When the run was triggered (its admission), not when it reached the group: a run delayed on
   * its way (a busy or paused controller) can arrive after a newer one (seed 003 admission order).
   */
  readonly admittedAt: number;
}

export interface GroupState {
  readonly mode: ConcurrencyMode;
  readonly active: ReadonlyArray<GroupRun>;
  /** Runs being cancelled: they still hold the group until they finish (§116). */
  readonly cancelling: ReadonlyArray<GroupRun>;
  readonly queued: ReadonlyArray<GroupRun>;
  /** CancelPrevious: the newest admission the group has taken in, even after that run finished. */
  readonly newest: GroupRun | null;
}

export type SubmitDecision =
  | { readonly kind: 'Started' }
  | { readonly kind: 'Queued'; readonly position: number }
  | { readonly kind: 'Rejected'; readonly activeRunIds: ReadonlyArray<string> }
  | { readonly kind: 'Superseding'; readonly cancelled: ReadonlyArray<string> }
  /** CancelPrevious: a newer run is already in the group, so this older one is superseded on arrival. */
  | { readonly kind: 'Superseded'; readonly by: string }
  | { readonly kind: 'CancelRefused'; readonly protectedRunIds: ReadonlyArray<string> };

export function emptyGroup(mode: ConcurrencyMode): GroupState {
  return { mode, active: [], cancelling: [], queued: [], newest: null };
}

function occupied(group: GroupState): boolean {
  return group.active.length > 0 || group.cancelling.length > 0;
}

export function submit(group: GroupState, run: GroupRun): { readonly group: GroupState; readonly decision: SubmitDecision } {
  const known = [...group.active, ...group.cancelling, ...group.queued].some((other) => other.runId === run.runId);
  assert(!known, `run ${run.runId} is submitted once`);
  const start = { group: { ...group, active: [...group.active, run] }, decision: { kind: 'Started' } as const };
  switch (group.mode) {
    case 'AllowParallel':
      return start;
    case 'Queue':
      if (!occupied(group)) return start;
      return { group: { ...group, queued: [...group.queued, run] }, decision: { kind: 'Queued', position: group.queued.length + 1 } };
    case 'RejectNew':
      if (!occupied(group)) return start;
      return { group, decision: { kind: 'Rejected', activeRunIds: [...group.active, ...group.cancelling].map((r) => r.runId) } };
    case 'CancelPrevious': {
      // The newest admission wins, whatever the order of arrival (seed 003): an older run that
      // arrives late never cancels a newer one, nor runs after it.
      if (group.newest !== null && group.newest.admittedAt > run.admittedAt) return { group, decision: { kind: 'Superseded', by: group.newest.runId } };
      const taken = { ...group, newest: run };
      if (!occupied(group)) return { group: { ...taken, active: [run] }, decision: { kind: 'Started' } };
      const protectedRuns = group.active.filter((r) => !r.supersedable);
      if (protectedRuns.length > 0) return { group, decision: { kind: 'CancelRefused', protectedRunIds: protectedRuns.map((r) => r.runId) } };
      // Queued runs that never started are superseded too; only the newest intent survives.
      const cancelled = [...group.active, ...group.queued];
      const next: GroupState = { ...taken, active: [], cancelling: [...group.cancelling, ...group.active], queued: [run] };
      return { group: next, decision: { kind: 'Superseding', cancelled: cancelled.map((r) => r.runId) } };
    }
  }
}

/**
 * A run finished (or, if it was cancelling, finished reconciling and released its lease). Returns
 * the runs that start now. In Queue and CancelPrevious modes the next run starts only once the
 * group holds nobody, so a superseded run's effects never overlap its successor's.
 */
export function complete(group: GroupState, runId: string): { readonly group: GroupState; readonly started: ReadonlyArray<GroupRun> } {
  const inActive = group.active.some((r) => r.runId === runId);
  const inCancelling = group.cancelling.some((r) => r.runId === runId);
  assert(inActive || inCancelling, `run ${runId} is running or cancelling`);
  const after: GroupState = {
    ...group,
    active: group.active.filter((r) => r.runId !== runId),
    cancelling: group.cancelling.filter((r) => r.runId !== runId),
  };
  const [head, ...rest] = after.queued;
  if (occupied(after) || head === undefined) return { group: after, started: [] };
  return { group: { ...after, active: [head], queued: rest }, started: [head] };
}
