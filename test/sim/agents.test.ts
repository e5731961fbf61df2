// Agents and their event streams in the simulator (sim/coordination/agents.ts; 001 §112–§118,
// §274–§275): an agent whose daemon dies connects to another and backfills from its cursor, so
// it ends with every job event; the broken rules are caught by their checkers.

import { describe, expect, test } from 'vitest';
import createMemoryStore from '../../adapters/memory.ts';
import type { FaultEvent } from '../../model/history.ts';
import { loadScenario } from '../../scenarios/index.ts';
import { runScenario } from '../../sim/run.ts';

const store = { name: 'memory', factory: createMemoryStore };
const faults = (history: ReadonlyArray<{ type: string }>, f: string): FaultEvent[] => history.filter((e): e is FaultEvent => e.type === 'fault' && (e as FaultEvent).f === f);

describe('agents in the simulator', () => {
  test('an agent that lost its daemon connects to another and resumes after its cursor; it ends with every event of the stream', async () => {
    const result = await runScenario({ scenario: loadScenario('agent-failover'), seed: 1, store });
    expect(result.valid).toBe(true);
    const lost = faults(result.history, 'agent-disconnected');
    expect(lost.length).toBeGreaterThan(0);
    const connected = faults(result.history, 'agent-connected');
    const moved = lost.filter((l) => connected.some((c) => c.index > l.index && c.value.agent === l.value.agent && c.value.daemon !== l.value.daemon));
    expect(moved.length).toBeGreaterThan(0);
    // The stream is the jobs' events: each submitted and each finished job.
    const jobEvents = result.history.filter((e) => e.type !== 'fault' && (e as { f: string }).f === 'job' && ((e as { type: string }).type === 'invoke' || (e as { type: string }).type === 'ok')).length;
    for (const agent of ['agent1', 'agent2', 'agent3']) {
      const seqs = faults(result.history, 'agent-received').filter((r) => r.value.agent === agent).flatMap((r) => r.value.seqs as number[]);
      expect(seqs, agent).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(seqs.length, agent).toBe(jobEvents);
    }
  });

  test('a stream resumed at the live tail, a daemon serving its own memory and an agent pinned to its daemon are each caught', async () => {
    const scenario = loadScenario('agent-failover');
    const verdicts = async (policy: Record<string, boolean>): Promise<string[]> => (await runScenario({ scenario, seed: 2, store, policy })).violations.map((v) => v.invariant);
    expect(await verdicts({ streamResumesAtCursor: false })).toContain('stream-gapless');
    expect(await verdicts({ apiReadsDatabase: false })).toContain('stream-gapless');
    expect(await verdicts({ agentsFailOver: false })).toContain('agents-reconnect');
  });
});
