// docs/ARCHITECTURE.md "Time and determinism" (seed 000 §299–§302): the same seed, scenario and adapter give the same trace hash in separate processes; other seeds differ.
import { describe, expect, it } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { traceHash } from '../../sim/history-recorder.ts';
import { runScenario } from '../../sim/run.ts';
import { expectSameHashForSameSeed, hashInChildProcess } from './same-seed.ts';

const store = { name: 'memory', factory: createMemoryStore };

describe('determinism', () => {
  it('gives the same trace hash for the same seed in two separate processes', () => {
    const first = hashInChildProcess('standard-mix', 11);
    const second = hashInChildProcess('standard-mix', 11);
    expect(first).toMatch(/^[0-9a-f]{64} \d+$/);
    expect(second).toBe(first);
  });

  it('gives the same hash in-process as in a child process, and a different hash for another seed', async () => {
    const a = await expectSameHashForSameSeed(loadScenario('swarm-mix'), 5);
    expect(hashInChildProcess('swarm-mix', 5)).toBe(`${a.traceHash} ${a.events}`);
    // The hash taken while recording equals the hash of the stored history.
    expect(traceHash(a.history)).toBe(a.traceHash);
  });

  it('replays a plan exactly after a JSON round trip', async () => {
    const scenario = loadScenario('controller-crash-reconcile');
    const direct = await runScenario({ scenario, seed: 3, store });
    const plan = JSON.parse(JSON.stringify(direct.plan));
    const replayed = await runScenario({ scenario, seed: 3, store, plan });
    expect(replayed.traceHash).toBe(direct.traceHash);
    expect(direct.replay).toBe('npx testbed run --scenario controller-crash-reconcile --seed 3 --adapter memory');
  });
});
