// The rules both lease stores of this project share, written from the testbed's rule book
// (model/SEMANTICS.md): argument bounds, role guards, and the protected resource a fenced write
// changes. Each store keeps its own leases and fences; these are the parts that do not depend on them.

import type { Command } from 'concurrency-testbed';

/** Leases are bounded (000 §31): a ttl is a whole number of milliseconds in 1..this. */
export const TTL_MAX_MS = 600_000;
/** Ids, holders and scopes: 1..this many characters, none of them a control character. */
export const ID_MAX_LENGTH = 256;

/** The kinds both stores implement: leases and the writes they fence, nothing else. */
export const LEASE_COMMANDS = ['Acquire', 'Renew', 'Release', 'Mutate'] as const;

export type Outcome = { readonly kind: string } & Record<string, unknown>;

export const validTtl = (ttl: unknown): boolean => Number.isInteger(ttl) && (ttl as number) >= 1 && (ttl as number) <= TTL_MAX_MS;

// eslint-disable-next-line no-control-regex
export const validId = (id: unknown): boolean => typeof id === 'string' && id.length >= 1 && id.length <= ID_MAX_LENGTH && !/[\x00-\x1f\x7f]/.test(id);

/**
 * What makes an Acquire bad input before any lease is read: its ttl (`ttl-out-of-bounds`), then
 * its ids (`invalid-argument`, after the ttl: SEMANTICS.md clarification 2). Null when it is good.
 */
export function rejectAcquire(command: Extract<Command, { kind: 'Acquire' }>): Outcome | null {
  if (!validTtl(command.ttlMs)) return { kind: 'Rejected', reason: 'ttl-out-of-bounds' };
  const ids = [command.scope, command.holder, ...(command.waiterId === undefined ? [] : [command.waiterId])];
  return ids.every(validId) ? null : { kind: 'Rejected', reason: 'invalid-argument' };
}

/**
 * Role guards (001 §92–§95): a caller whose role epoch is below the stored one is fenced; a guard
 * that passes stores its epoch, whatever the command answers after (SEMANTICS.md clarification 3).
 * An epoch that is negative or not a finite number proves nothing (clarification 15).
 */
export class RoleEpochs {
  private readonly epochs = new Map<string, number>();

  /** `Fenced` when the guard is refused; null when there is none or it passes. */
  check(guard: { readonly role: string; readonly epoch: number } | undefined): Outcome | null {
    if (guard === undefined) return null;
    const stored = this.epochs.get(guard.role) ?? 0;
    if (!(Number.isFinite(guard.epoch) && guard.epoch >= stored)) return { kind: 'Fenced', role: guard.role, currentEpoch: stored };
    this.epochs.set(guard.role, guard.epoch);
    return null;
  }
}

/** The protected resource: a version per (scope, aggregate), 0 at first (000 §66–§70). */
export class Versions {
  private readonly versions = new Map<string, number>();

  /** Writes if `expected` is the current version: `Accepted` under `fence`, else `StaleVersion`. */
  write(scope: string, aggregate: string, expected: number, fence: unknown): Outcome {
    const key = JSON.stringify([scope, aggregate]);
    const current = this.versions.get(key) ?? 0;
    if (current !== expected) return { kind: 'StaleVersion', currentVersion: current };
    this.versions.set(key, current + 1);
    return { kind: 'Accepted', version: current + 1, token: fence };
  }
}
