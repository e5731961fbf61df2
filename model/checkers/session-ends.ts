// Leases that ended with their holders' sessions (adapters/port.ts `lifecycle`): the store says so,
// and the history records it as `session-ended` ground truth. And whether the store's leases are
// bound by sessions rather than by TTL (`session-leases`): then a lease is live until it is
// released or its session ends, whatever `expiresAt` it reported.

import type { History } from '../history.ts';
import { isTruth, numberField, stringField } from './operations.ts';

export interface SessionEnd {
  readonly scope: string;
  readonly holder: string;
  readonly token: number;
  readonly time: number;
  readonly index: number;
}

export const sessionKey = (scope: string, token: number, holder: string): string => `${scope}\u0000${token}\u0000${holder}`;

/** The first end of each lease that ended with its session, by `sessionKey`. */
export function sessionEnds(history: History): ReadonlyMap<string, SessionEnd> {
  const ends = new Map<string, SessionEnd>();
  for (const event of history) {
    if (!isTruth(event) || event.f !== 'session-ended') continue;
    const scope = stringField(event.value, 'scope');
    const holder = stringField(event.value, 'holder');
    const token = numberField(event.value, 'token');
    if (scope === undefined || holder === undefined || token === undefined) continue;
    const id = sessionKey(scope, token, holder);
    if (!ends.has(id)) ends.set(id, { scope, holder, token, time: event.time, index: event.index });
  }
  return ends;
}

/** Whether the store declared session-bound leases (recorded once, when it was attached). */
export function sessionBound(history: History): boolean {
  return history.some((event) => isTruth(event) && event.f === 'session-leases');
}
