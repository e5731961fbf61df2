// maintenance-respected (001 §129–§131, §306): a dispatch under the epoch in force while the
// maintenance state stops scheduling is caught; one sent before the change, one under an older
// epoch (a deposed leader) and one in a state that does not stop scheduling pass.

import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../model/history.ts';
import { maintenanceRespected } from '../../../model/checkers/maintenance-respected.ts';

const change = (index: number, state: string, roleEpoch: number, epoch = 1): HistoryEvent =>
  ({ index, time: index, process: 'nemesis', type: 'fault', f: 'maintenance-change', value: { epoch, state, by: 'c2#1', roleEpoch } }) as HistoryEvent;

function dispatch(index: number, epoch: number): HistoryEvent[] {
  const command = { kind: 'DispatchJob', jobId: 'op1', holder: 'c2#1', ttlMs: 1000, guard: { role: 'scheduler', epoch } };
  return [
    { index, time: index, process: 'c2#1:lead1', type: 'invoke', f: 'DispatchJob', value: command } as HistoryEvent,
    { index: index + 1, time: index + 1, process: 'c2#1:lead1', type: 'ok', f: 'DispatchJob', value: { kind: 'NotDispatchable', job: null } } as HistoryEvent,
  ];
}

describe('maintenance-respected', () => {
  it('fails a dispatch under the current epoch inside a NoScheduling window', () => {
    const verdict = maintenanceRespected([change(0, 'NoScheduling', 2), ...dispatch(1, 2)]);
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toContain('while maintenance NoScheduling');
  });

  it('fails a maintenance epoch that does not rise', () => {
    const verdict = maintenanceRespected([change(0, 'NoScheduling', 2), change(1, 'Normal', 2)]);
    expect(verdict.valid).toBe(false);
    expect(verdict.violations[0]!.message).toContain('not above epoch 1');
  });

  it('passes a dispatch sent before the change, one under an older epoch, and one the state does not stop', () => {
    expect(maintenanceRespected([...dispatch(0, 2), change(2, 'NoScheduling', 2)]).valid).toBe(true);
    expect(maintenanceRespected([change(0, 'NoScheduling', 2), ...dispatch(1, 1)]).valid).toBe(true);
    expect(maintenanceRespected([change(0, 'NoReleasePromotion', 2), ...dispatch(1, 2)]).valid).toBe(true);
    expect(maintenanceRespected([change(0, 'NoScheduling', 2), change(1, 'Normal', 2, 2), ...dispatch(2, 2)]).valid).toBe(true);
  });
});
