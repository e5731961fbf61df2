// Reads the membership audit record from a history: the `membership-change` fault events
// `{ version, change, node, voters, learners, by }` (seed 001 §20, §227), a promotion with what
// the learner had caught up to (`learnerEpoch`, `committedEpoch`). A history without them
// ran on a fixed configuration in which every controller votes.

import { assert } from '../assert.ts';
import type { FaultEvent, History } from '../history.ts';
import { asFields, faultsOf, requireNumber, requireString } from './operations.ts';

export interface MembershipRecord {
  readonly event: FaultEvent;
  readonly version: number;
  readonly change: 'bootstrap' | 'add-learner' | 'promote' | 'remove';
  /** The node changed (null for the bootstrap configuration). */
  readonly node: string | null;
  readonly voters: ReadonlyArray<string>;
  readonly learners: ReadonlyArray<string>;
  /** The leader incarnation that committed it (null for the bootstrap configuration). */
  readonly by: string | null;
  /** A promotion: the epoch the learner knew and the one committed when it was proposed. */
  readonly catchUp?: { readonly learnerEpoch: number; readonly committedEpoch: number };
}

const CHANGES = new Set(['bootstrap', 'add-learner', 'promote', 'remove']);

function names(value: unknown, field: string, index: number): ReadonlyArray<string> {
  const list = asFields(value)?.[field];
  assert(Array.isArray(list) && list.every((n) => typeof n === 'string'), `#${index}: membership-change lists its ${field}`);
  return list as ReadonlyArray<string>;
}

function nullableString(value: unknown, field: string, index: number): string | null {
  const found = asFields(value)?.[field];
  if (found === null) return null;
  return requireString(value, field, index);
}

export function membershipRecords(history: History): ReadonlyArray<MembershipRecord> {
  return faultsOf(history, ['membership-change']).map((event) => {
    const change = requireString(event.value, 'change', event.index);
    assert(CHANGES.has(change), `#${event.index}: membership-change is one of ${[...CHANGES].join(', ')}, not ${change}`);
    return {
      event,
      version: requireNumber(event.value, 'version', event.index),
      change: change as MembershipRecord['change'],
      node: nullableString(event.value, 'node', event.index),
      voters: names(event.value, 'voters', event.index),
      learners: names(event.value, 'learners', event.index),
      by: nullableString(event.value, 'by', event.index),
      ...catchUpOf(event),
    };
  });
}

function catchUpOf(event: FaultEvent): Pick<MembershipRecord, 'catchUp'> {
  if (asFields(event.value)?.['learnerEpoch'] === undefined) return {};
  return { catchUp: { learnerEpoch: requireNumber(event.value, 'learnerEpoch', event.index), committedEpoch: requireNumber(event.value, 'committedEpoch', event.index) } };
}

/** The node of a process or incarnation name: `c2` of `c2#3:lead4`. */
export function nodeOfProcess(process: string): string {
  const hash = process.indexOf('#');
  const colon = process.indexOf(':');
  const end = hash >= 0 ? hash : colon >= 0 ? colon : process.length;
  return process.slice(0, end);
}
