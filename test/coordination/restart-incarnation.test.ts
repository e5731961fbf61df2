// seed 001 §266, §12–§13: a restarted node runs as a new incarnation and inherits no role or guard: it leads only after winning a new election under its new incarnation.
import { describe, expect, it } from 'vitest';
import { incarnationOfProcess } from '../../model/node-incarnation.ts';
import { memoryRuns } from './coordination-sweep.ts';

const SEEDS = 30;

describe('restart incarnation', () => {
  it(`every restart gives a new incarnation, and guards are used only by the incarnation that won them (${SEEDS} seeds)`, async () => {
    let restartedLeaders = 0;
    for await (const { seed, history } of memoryRuns('restart-incarnation', SEEDS)) {
      const incarnations = new Map<string, number>();
      const epochOwner = new Map<number, string>();
      const formerLeaders = new Set<string>();
      for (const event of history) {
        if (event.type === 'fault' && event.f === 'restart') {
          const node = event.value['node'] as string;
          const process = event.value['process'] as string;
          const next = Number(process.split('#')[1]);
          expect(next, `seed ${seed}: ${process} follows ${node}#${incarnations.get(node) ?? 1}`).toBe((incarnations.get(node) ?? 1) + 1);
          incarnations.set(node, next);
          if ([...epochOwner.values()].some((leader) => leader.startsWith(`${node}#`))) formerLeaders.add(process);
        }
        if (event.type === 'fault' && event.f === 'leader-change') epochOwner.set(event.value['epoch'] as number, event.value['leader'] as string);
        if (event.type !== 'invoke') continue;
        const guard = (event.value as { guard?: { epoch: number } }).guard;
        if (guard === undefined) continue;
        // The guard's epoch was won by exactly this incarnation, never by an earlier one of the same node.
        expect(epochOwner.get(guard.epoch), `seed ${seed} #${event.index}`).toBe(incarnationOfProcess(event.process));
      }
      restartedLeaders += formerLeaders.size;
    }
    expect(restartedLeaders).toBeGreaterThan(0);
  });
});
