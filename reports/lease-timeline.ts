// The picture behind a Jepsen-style timeline: who held which scope with which fencing token and
// when, which faults were active, which protected writes landed, and where the violations are.
// Pure: it reads a RunResult and returns plain data for the SVG renderer.

import type { HistoryEvent, OpEvent } from '../model/history.ts';
import { faultBands, type FaultBand } from './fault-bands.ts';
import type { Lease, Tombstone } from '../model/outcomes.ts';
import type { RunResult } from '../sim/run-result.ts';

type LeaseEnd = 'released' | 'expired' | 'handed-off' | 'force-released' | 'invalidated' | 'open';

interface LeaseBar {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly start: number;
  readonly end: number;
  readonly endedBy: LeaseEnd;
}


/** A protected write or external effect on a holder's row. */
interface OperationMark {
  readonly scope: string;
  readonly holder: string;
  readonly time: number;
  readonly kind: 'accepted' | 'rejected' | 'effect';
  readonly label: string;
}

interface EventPlace {
  readonly time: number;
  readonly scope: string | undefined;
  readonly holder: string | undefined;
}

/**
 * A violation, drawn once: on its offending event (the latest of the events it names, for
 * example the second holder's acquire of a reused token), linked to the events it conflicts
 * with on other rows (the first holder's acquire).
 */
interface ViolationMark extends EventPlace {
  readonly invariant: string;
  readonly message: string;
  readonly conflicts: ReadonlyArray<EventPlace>;
}

interface TimelineRow {
  readonly scope: string;
  readonly holder: string;
}

export interface LeaseTimeline {
  readonly rows: ReadonlyArray<TimelineRow>;
  readonly bars: ReadonlyArray<LeaseBar>;
  readonly faults: ReadonlyArray<FaultBand>;
  readonly marks: ReadonlyArray<OperationMark>;
  readonly violations: ReadonlyArray<ViolationMark>;
  /** The window drawn, in ms: from 0 for a whole run, from just before its first step for a counterexample cut from one. */
  readonly startTime: number;
  readonly endTime: number;
}

interface OpenLease {
  readonly lease: Lease;
  expiresAt: number;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function leaseTimeline(run: RunResult): LeaseTimeline {
  const history = run.history;
  const endTime = history.reduce((end, e) => Math.max(end, e.time), Math.max(run.simulatedMs, 1));
  const invokes = new Map<string, OpEvent>();
  const open = new Map<string, OpenLease>();
  const bars: LeaseBar[] = [];
  const marks: OperationMark[] = [];
  const byIndex = new Map<number, HistoryEvent>();
  const scopeOfHolder = new Map<string, string>();
  const hasTruth = history.some((e) => e.type === 'truth');

  // Keyed by holder too: a broken store may hand the same token to two holders, and both must show.
  const keyOf = (scope: string, token: number, holder: string): string => `${scope}\u0000${token}\u0000${holder}`;
  const close = (scope: string, token: number, holder: string | undefined, time: number, endedBy: LeaseEnd): void => {
    for (const [key, lease] of [...open]) {
      if (lease.lease.scope !== scope || lease.lease.token !== token || (holder !== undefined && lease.lease.holder !== holder)) continue;
      open.delete(key);
      const expired = lease.expiresAt < time;
      bars.push({
        scope,
        holder: lease.lease.holder,
        token,
        start: lease.lease.acquiredAt,
        end: expired ? lease.expiresAt : time,
        endedBy: expired ? 'expired' : endedBy,
      });
    }
  };
  const start = (lease: Lease, time: number): void => {
    close(lease.scope, lease.token, lease.holder, time, 'invalidated');
    open.set(keyOf(lease.scope, lease.token, lease.holder), { lease, expiresAt: lease.expiresAt });
    scopeOfHolder.set(lease.holder, lease.scope);
  };

  for (const event of history) {
    byIndex.set(event.index, event);
    if (event.type === 'truth') {
      const scope = text(event.value['scope']);
      const holder = text(event.value['holder']);
      if (scope !== undefined && holder !== undefined) {
        const token = String(event.value['token'] ?? '?');
        marks.push(
          event.f === 'effect-applied'
            ? { scope, holder, time: event.time, kind: 'effect', label: `effect applied ${String(event.value['operation'] ?? '')} under token ${token}` }
            : { scope, holder, time: event.time, kind: 'accepted', label: `write landed on ${String(event.value['aggregate'] ?? '')} under token ${token}` },
        );
      }
      continue;
    }
    if (event.type === 'fault') continue;
    if (event.type === 'invoke') {
      invokes.set(event.process, event);
      continue;
    }
    const invoke = invokes.get(event.process);
    invokes.delete(event.process);
    if (event.type !== 'ok') continue;
    const command = invoke?.value;
    const outcome = event.value;
    const kind = field(outcome, 'kind');
    const scope = text(field(command, 'scope'));
    const commandHolder = text(field(command, 'holder'));
    const holder = commandHolder ?? event.process;
    switch (kind) {
      case 'Acquired':
        start(field(outcome, 'lease') as Lease, event.time);
        break;
      case 'AcquiredAll':
        for (const lease of field(outcome, 'leases') as ReadonlyArray<Lease>) start(lease, event.time);
        break;
      case 'Renewed': {
        const lease = field(outcome, 'lease') as Lease;
        const current = open.get(keyOf(lease.scope, lease.token, lease.holder));
        if (current !== undefined) current.expiresAt = lease.expiresAt;
        break;
      }
      case 'Released':
        if (scope !== undefined) close(scope, Number(field(outcome, 'token')), commandHolder, event.time, 'released');
        break;
      case 'HandedOff': {
        const lease = field(outcome, 'lease') as Lease;
        const previous = Number(field(command, 'token'));
        close(lease.scope, previous, commandHolder, event.time, 'handed-off');
        start(lease, event.time);
        break;
      }
      case 'ForceReleased': {
        const tombstone = field(outcome, 'tombstone') as Tombstone;
        close(tombstone.scope, tombstone.token, tombstone.holder, event.time, 'force-released');
        break;
      }
      case undefined:
        // A workflow-group cancellation reports the leases it released (model/history.ts `cancel`).
        if (invoke?.f === 'cancel') {
          for (const released of (field(outcome, 'released') ?? []) as ReadonlyArray<{ scope: string; token: number }>) {
            close(released.scope, released.token, undefined, event.time, 'released');
          }
        }
        break;
      case 'RecoveryAdvanced':
        for (const { lease } of [...open.values()]) close(lease.scope, lease.token, lease.holder, event.time, 'invalidated');
        break;
      case 'Accepted':
      case 'StaleFence':
        // Ground truth shows the writes that landed; a client's own Accepted is drawn only without it.
        if (scope !== undefined && (kind === 'StaleFence' || !hasTruth)) {
          marks.push({
            scope,
            holder,
            time: event.time,
            kind: kind === 'Accepted' ? 'accepted' : 'rejected',
            label: `Mutate with token ${String(field(command, 'token'))}: ${kind}`,
          });
        }
        break;
      default:
        break;
    }
  }
  for (const { lease, expiresAt } of [...open.values()]) {
    const ended = Math.min(expiresAt, endTime);
    bars.push({ scope: lease.scope, holder: lease.holder, token: lease.token, start: lease.acquiredAt, end: ended, endedBy: expiresAt <= endTime ? 'expired' : 'open' });
  }
  bars.sort((a, b) => a.start - b.start || a.token - b.token);

  const rows: TimelineRow[] = [];
  const seen = new Set<string>();
  const addRow = (scope: string, holder: string): void => {
    const key = `${scope}\u0000${holder}`;
    if (seen.has(key)) return;
    seen.add(key);
    rows.push({ scope, holder });
  };
  const appearances = [...bars.map((b) => ({ ...b, time: b.start })), ...marks].sort((a, b) => a.time - b.time);
  for (const scope of new Set(appearances.map((a) => a.scope))) {
    for (const item of appearances) if (item.scope === scope) addRow(scope, item.holder);
  }

  const violations: ViolationMark[] = [];
  for (const violation of run.violations) {
    const place = (event: HistoryEvent | undefined): EventPlace => {
      const value = event?.value;
      const holder = text(field(value, 'holder')) ?? text(field(field(value, 'lease'), 'holder')) ?? (event === undefined ? undefined : event.process);
      const scope = violation.scope ?? text(field(value, 'scope')) ?? text(field(field(value, 'lease'), 'scope')) ?? (holder === undefined ? undefined : scopeOfHolder.get(holder));
      return { time: event?.time ?? endTime, scope, holder };
    };
    const events = (violation.events ?? []).map((i) => byIndex.get(i)).filter((e): e is HistoryEvent => e !== undefined);
    // The offending event is the one that broke the rule: the latest the violation names.
    const ordered = [...events].sort((a, b) => a.time - b.time || a.index - b.index);
    const offending = place(ordered.at(-1));
    const conflicts = ordered
      .slice(0, -1)
      .map(place)
      .filter((c, i, all) => (c.holder !== offending.holder || c.scope !== offending.scope) && all.findIndex((d) => d.holder === c.holder && d.scope === c.scope) === i);
    violations.push({ ...offending, invariant: violation.invariant, message: violation.message, conflicts });
  }
  return { rows, bars, faults: faultBands(history, endTime), marks, violations, startTime: 0, endTime };
}
