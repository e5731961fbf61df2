// The controllers' progress in every simulated run (sim/progress-watch.ts; seed 000 §2, §287,
// §318): a controller that holds operations and runs nothing, or that ends an operation without
// doing any of it, is a `controller-progress` finding, while every must-pass scenario stays clean.
// The broken controllers here replace the engine's entry to the protocol (its hooks), so the
// protocol files stay as they are.

import { afterEach, describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { listScenarios, loadScenario } from '../../scenarios/index.ts';
import { controllerHooks } from '../../sim/controller.ts';
import type { Journal, Node, Sim } from '../../sim/engine.ts';
import { ProgressWatch } from '../../sim/progress-watch.ts';
import { runScenario } from '../../sim/run.ts';
import { Fiber, Node as SimNode } from '../../sim/sim-node.ts';

const memory = { name: 'memory', factory: createMemoryStore };
const original = { ...controllerHooks };

afterEach(() => {
  Object.assign(controllerHooks, original);
});

async function progressFindings(scenario: string, seed: number): Promise<ReadonlyArray<string>> {
  const result = await runScenario({ scenario: loadScenario(scenario), seed, store: memory });
  return result.violations.filter((v) => v.invariant === 'controller-progress').map((v) => v.message);
}

describe('controller-progress in simulated runs', () => {
  test('a controller that never takes its queue up holds its operations for ever: found', async () => {
    controllerHooks.startNext = () => {};
    const found = await progressFindings('stale-holder', 1);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatch(/^c\d+#\d+ holds \d+ queued operation\(s\) and runs nothing that would carry them out/);
  });

  test('a controller that ends each operation without doing it: found, naming the operation', async () => {
    // Takes each operation and ends it at once, as a dispatch that returns without running the workload.
    const idle = (sim: Sim, node: Node): void => {
      if (node.busy || node.down) return;
      const op = node.pending.shift();
      if (op === undefined) return;
      node.busy = true;
      const journal: Journal = { op, attempt: 1, intentId: null, effectInFlight: false };
      node.journal = journal;
      sim.spawn(node, node.proc, async () => {
        node.journal = null;
        node.busy = false;
        idle(sim, node);
      });
    };
    controllerHooks.startNext = idle;
    const found = await progressFindings('stale-holder', 1);
    expect(found[0]).toMatch(/^c\d+ ended op\d+ \(\S+\) without a call or an operation of its own/);
  });

  test('a restarted controller that does not take up what its last incarnation left: found', async () => {
    controllerHooks.recover = () => {};
    const seeds = [1, 2, 3, 4, 5, 6];
    const found = (await Promise.all(seeds.map((seed) => progressFindings('controller-crash-reconcile', seed)))).flat();
    expect(found.length).toBeGreaterThan(0);
  });

  test('the protocol as it is: no finding on any must-pass scenario', async () => {
    for (const scenario of listScenarios().filter((s) => s.expect === 'pass')) {
      for (const seed of [1, 2, 3]) expect(await progressFindings(scenario.name, seed), `${scenario.name} seed ${seed}`).toEqual([]);
    }
  });
});

describe('ProgressWatch', () => {
  const op = { id: 'op1', workload: 'env-deploy' } as Journal['op'];
  const node = (): SimNode => {
    const n = new SimNode('c1');
    n.proc = 'c1#1';
    return n;
  };

  test('a job that crashed while it ran is excused; one that ended after a call is not judged', () => {
    const watch = new ProgressWatch();
    const a = node();
    a.journal = { op, attempt: 1, intentId: null, effectInFlight: false };
    watch.spawned(a, 0);
    watch.retired(a, 0);
    a.journal = null;
    expect(watch.violations([a], [])).toEqual([]);

    const b = node();
    b.journal = { op, attempt: 1, intentId: null, effectInFlight: false };
    watch.spawned(b, 0);
    b.journal = null;
    const call = { index: 0, time: 1, process: 'c1#1', type: 'invoke' as const, f: 'Acquire', value: {} };
    expect(watch.violations([b], [call])).toEqual([]);
    expect(watch.violations([b], [{ ...call, process: 'c10#1' }])).toHaveLength(1);
  });

  test('work held by a node that is down, or with a fiber still to run, is not a stall', () => {
    const watch = new ProgressWatch();
    const down = node();
    down.pending.push(op);
    down.down = true;
    const waiting = node();
    waiting.busy = true;
    waiting.fibers.push(new Fiber(waiting, 'c1#1', async () => {}));
    expect(watch.violations([down, waiting], [])).toEqual([]);
    waiting.fibers[0]!.dead = true;
    expect(watch.violations([waiting], [])[0]?.message).toMatch(/holds 0 queued operation\(s\) and runs nothing/);
    // A journal a past incarnation left, with no fiber to take it up, is held work too.
    const left = node();
    left.journal = { op, attempt: 1, intentId: null, effectInFlight: true };
    expect(watch.violations([left], [])[0]?.message).toMatch(/^c1#1 holds op1 in progress and 0 queued operation\(s\) and runs nothing/);
  });

  test('a job whose only call the store lacks (no history record) did work', () => {
    const watch = new ProgressWatch();
    const n = node();
    n.journal = { op, attempt: 1, intentId: null, effectInFlight: false };
    watch.spawned(n, 0);
    watch.called(n);
    n.journal = null;
    expect(watch.violations([n], [])).toEqual([]);
  });
});
