// Where a planned operation goes when its time comes (the agenda's EV_OP): under a coordination
// plan to the scheduler as a job, submitted through the API daemon on the named node (seed 001);
// in a federated run to the node of the site the named node's site believes holds the operation's
// domain (sim/federation/); otherwise to the named node's own queue. A node that is idle and up
// takes its queue up at once.

import { strict as assert } from 'node:assert';
import type { OpSpec } from './plan.ts';
import type { Node, SimCoordination } from './sim-node.ts';

/** What routing reads of the simulation. */
export interface OpRoutes {
  readonly nodes: ReadonlyMap<string, Node>;
  readonly coordination: SimCoordination | null;
  readonly federation: { route(node: string, domain: string): string } | null;
}

/** Hands `op`, planned for `nodeName`, to whoever runs it; `startNext` starts an idle node's next operation. */
export function routeOp(routes: OpRoutes, nodeName: string, op: OpSpec, startNext: (node: Node) => void): void {
  const node = routes.nodes.get(nodeName);
  if (node === undefined) assert.fail(`plan names a known node: ${nodeName}`);
  if (routes.coordination !== null) {
    routes.coordination.submit(op, node);
    return;
  }
  const runner = routes.federation === null ? node : routes.nodes.get(routes.federation.route(node.name, op.tenant))!;
  runner.pending.push(op);
  if (!runner.busy && !runner.down) startNext(runner);
}
