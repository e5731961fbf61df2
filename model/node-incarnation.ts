// Node identity and process incarnation (seed 001 §11–§14). A cluster node keeps its identity
// across restarts; each process start is a new incarnation, and authority (a role, a guard) is
// bound to the incarnation that won it, so a restarted process inherits none of it (§13).

import { assert } from './assert.ts';

export interface NodeIncarnation {
  /** Stable node identity (§11): `c1`, never a pod or host name. */
  readonly node: string;
  /** Process generation on that node, starting at 1 and raised by every restart (§12). */
  readonly incarnation: number;
}

export function firstIncarnation(node: string): NodeIncarnation {
  assert(node.length > 0, 'a node has a name');
  assert(!node.includes('#') && !node.includes(':'), 'a node name holds no incarnation separator');
  return { node, incarnation: 1 };
}

/** The incarnation of the next process on the same node: a new identity with no authority. */
export function restarted(previous: NodeIncarnation): NodeIncarnation {
  assert(Number.isSafeInteger(previous.incarnation) && previous.incarnation >= 1, 'an incarnation is a positive integer');
  return { node: previous.node, incarnation: previous.incarnation + 1 };
}

/** `c1#2`: the process name the simulator and the history use. */
export function incarnationId(value: NodeIncarnation): string {
  return `${value.node}#${value.incarnation}`;
}

/**
 * The incarnation a history process belongs to: `c1#2:s4` → `c1#2`. Sub-processes of one
 * incarnation (heartbeats, scheduler attempts) act with that incarnation's authority only.
 */
export function incarnationOfProcess(process: string): string {
  const colon = process.indexOf(':');
  return colon < 0 ? process : process.slice(0, colon);
}

export function sameIncarnation(a: NodeIncarnation, b: NodeIncarnation): boolean {
  return a.node === b.node && a.incarnation === b.incarnation;
}
