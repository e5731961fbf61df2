// Builds small Jepsen-shaped histories by hand for the checker tests: indices are assigned in
// order and time advances by one millisecond per event unless set with `at`. `failing` reads the
// verdict a test expects to fail.

import { expect } from 'vitest';
import type { Command } from '../../../model/commands.ts';
import type { FaultKind, History, HistoryEvent, OpType, TruthEvent } from '../../../model/history.ts';
import type { Lease } from '../../../model/outcomes.ts';
import type { Verdict, Violation } from '../../../model/verdict.ts';

export class HistoryBuilder {
  private readonly events: HistoryEvent[] = [];
  private time = 0;

  /** Sets the time of the next event. */
  at(time: number): this {
    this.time = time;
    return this;
  }

  private push(make: (index: number, time: number) => HistoryEvent): number {
    const index = this.events.length;
    this.events.push(make(index, this.time));
    this.time += 1;
    return index;
  }

  event(process: string, type: OpType, f: string, value: unknown): number {
    return this.push((index, time) => ({ index, time, process, type, f, value }));
  }

  invoke(process: string, f: string, value: unknown): number {
    return this.event(process, 'invoke', f, value);
  }

  /** A store command answered ok right away: returns [invoke index, ok index]. */
  op(process: string, command: Command, outcome: unknown): [number, number] {
    return [this.invoke(process, command.kind, command), this.event(process, 'ok', command.kind, outcome)];
  }

  /** A controller-level operation (`effect`, `inspect`, `cancel`, `wait`) completed at once. */
  call(process: string, f: string, value: unknown, type: Exclude<OpType, 'invoke'>, result: unknown): [number, number] {
    return [this.invoke(process, f, value), this.event(process, type, f, result)];
  }

  fault(f: FaultKind, value: Readonly<Record<string, unknown>> = {}): number {
    return this.push((index, time) => ({ index, time, process: 'nemesis', type: 'fault', f, value }));
  }

  truth(f: TruthEvent['f'], value: Readonly<Record<string, unknown>>): number {
    const process = f === 'effect-applied' ? 'provider' : f === 'work-step' || f === 'handler-returned' || f === 'cancel-cause' ? 'handler' : f === 'interleaving' || f === 'session-leases' || f === 'session-ended' || f === 'own-semantics' ? 'database' : 'resource';
    return this.push((index, time) => ({ index, time, process, type: 'truth', f, value }));
  }

  build(): History {
    return [...this.events];
  }
}

export function lease(scope: string, holder: string, token: number, acquiredAt = 0, ttlMs = 10_000): Lease {
  return { scope, holder, token, acquiredAt, expiresAt: acquiredAt + ttlMs };
}

export function acquire(scope: string, holder: string, ttlMs = 10_000): Command {
  return { kind: 'Acquire', scope, holder, ttlMs };
}

/** Appends an Acquire answered Acquired with `token`; returns the ok index. */
export function acquired(h: HistoryBuilder, process: string, scope: string, holder: string, token: number): number {
  return h.op(process, acquire(scope, holder), { kind: 'Acquired', lease: lease(scope, holder, token) })[1];
}

/** A history that opens with `holder` (process c1#1) acquiring scope 'env' under `token`; `issued` is the ok index. */
export function leaseHeld(holder: string, token: number): { readonly h: HistoryBuilder; readonly issued: number } {
  const h = new HistoryBuilder();
  return { h, issued: acquired(h, 'c1#1', 'env', holder, token) };
}

/** Appends a Mutate answered Accepted; returns the ok index. */
export function mutated(h: HistoryBuilder, process: string, scope: string, holder: string, token: number, version = 0): number {
  const command: Command = { kind: 'Mutate', scope, aggregate: 'agg', holder, token, expectedVersion: version };
  return h.op(process, command, { kind: 'Accepted', version: version + 1, token })[1];
}

/** Expects `verdict` to fail, with exactly `count` violations when given; returns its violations. */
export function failing(verdict: Verdict, count?: number): ReadonlyArray<Violation> {
  expect(verdict.valid).toBe(false);
  if (count !== undefined) expect(verdict.violations).toHaveLength(count);
  return verdict.violations;
}
