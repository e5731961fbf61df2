// What fenced the store's leases, from the history's `fencing` record (model/history.ts): integer
// tokens unless the store declared otherwise. Without integer fences the tokens in the history are
// ids given in the order the store showed its fences: "issued later" still reads as "higher",
// but a promise about integers (a ForceReleased `nextToken`) was never made.

import type { History } from '../history.ts';
import { isTruth } from './operations.ts';

export type FencingKind = 'integer' | 'opaque' | 'none';

export function fencingKind(history: History): FencingKind {
  for (const event of history) {
    if (!isTruth(event) || event.f !== 'fencing') continue;
    const kind = event.value.kind;
    if (kind === 'opaque' || kind === 'none') return kind;
  }
  return 'integer';
}
