// Argument bounds shared by every command that validates (model/SEMANTICS.md "Constants").

import { CAPACITY_MAX, ID_MAX_LENGTH, LEASE_TTL_MAX_MS, PRIORITY_LIMIT, RETENTION_MAX_MS } from './constants.ts';

/** U+0000–U+001F and U+007F. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f) return true;
  }
  return false;
}

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && id.length >= 1 && id.length <= ID_MAX_LENGTH && !hasControlCharacter(id);
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function isValidTtl(ttlMs: unknown): boolean {
  return isIntegerIn(ttlMs, 1, LEASE_TTL_MAX_MS);
}

export function isValidPriority(priority: unknown): boolean {
  return isIntegerIn(priority, -PRIORITY_LIMIT, PRIORITY_LIMIT);
}

export function isValidCapacity(capacity: unknown): boolean {
  return isIntegerIn(capacity, 1, CAPACITY_MAX);
}

export function isValidUnits(units: unknown): boolean {
  return isIntegerIn(units, 1, Number.MAX_SAFE_INTEGER);
}

export function isValidRetention(retentionMs: unknown): boolean {
  return isIntegerIn(retentionMs, 1, RETENTION_MAX_MS);
}
