// How long waiters waited: from Enqueue to the Acquire that got the lease (or a whole `wait`
// operation, when the controller records one). High contention shows up here (seed 000 §315).

import type { History, OpEvent } from '../model/history.ts';

export interface Wait {
  readonly scope: string;
  readonly waiterId: string;
  readonly enqueuedAt: number;
  readonly acquiredAt: number;
  readonly waitMs: number;
}

interface WaitStats {
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function commandOf(event: OpEvent): { kind: unknown; scope: unknown; waiterId: unknown } {
  return { kind: field(event.value, 'kind') ?? event.f, scope: field(event.value, 'scope'), waiterId: field(event.value, 'waiterId') };
}

export function waitTimes(history: History): Wait[] {
  const invokes = new Map<string, OpEvent>();
  const enqueued = new Map<string, number>();
  const waits = new Map<string, Wait>();
  const whole = new Set<string>();
  for (const event of history) {
    if (event.type === 'fault' || event.type === 'truth') continue;
    if (event.type === 'invoke') {
      invokes.set(event.process, event);
      const c = commandOf(event);
      if (c.kind === 'Enqueue' && typeof c.scope === 'string' && typeof c.waiterId === 'string') {
        enqueued.set(`${c.scope}\u0000${c.waiterId}`, event.time);
      }
      continue;
    }
    const invoke = invokes.get(event.process);
    invokes.delete(event.process);
    if (event.type !== 'ok' || invoke === undefined) continue;
    const c = commandOf(invoke);
    if (typeof c.scope !== 'string' || typeof c.waiterId !== 'string') continue;
    const key = `${c.scope}\u0000${c.waiterId}`;
    const wait = (enqueuedAt: number): Wait => ({ scope: c.scope as string, waiterId: c.waiterId as string, enqueuedAt, acquiredAt: event.time, waitMs: event.time - enqueuedAt });
    if (invoke.f === 'wait') {
      // A recorded whole wait is the waiter's own measure; it wins over the Enqueue/Acquire pair.
      whole.add(key);
      waits.set(key, wait(invoke.time));
    } else if (c.kind === 'Acquire' && field(event.value, 'kind') === 'Acquired' && !whole.has(key)) {
      const enqueuedAt = enqueued.get(key);
      if (enqueuedAt !== undefined) waits.set(key, wait(enqueuedAt));
    }
  }
  return [...waits.values()].sort((a, b) => a.acquiredAt - b.acquiredAt);
}

function percentile(sorted: ReadonlyArray<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function waitStats(waits: ReadonlyArray<Wait>): WaitStats {
  const sorted = waits.map((w) => w.waitMs).sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? 0 };
}
