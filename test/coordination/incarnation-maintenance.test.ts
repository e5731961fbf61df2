// seed 001 §12–§13, §129–§131: a restarted node is a new incarnation, and the maintenance epoch gates destructive operations and stale views.
import { describe, expect, it } from 'vitest';
import { gate, NORMAL, setMaintenance } from '../../model/maintenance.ts';
import { firstIncarnation, incarnationId, incarnationOfProcess, restarted, sameIncarnation } from '../../model/node-incarnation.ts';

describe('node incarnation', () => {
  it('a restart keeps the node and gives a new incarnation', () => {
    const first = firstIncarnation('c2');
    const second = restarted(first);
    expect(incarnationId(first)).toBe('c2#1');
    expect(incarnationId(second)).toBe('c2#2');
    expect(sameIncarnation(first, second)).toBe(false);
    expect(incarnationOfProcess('c2#2:a17')).toBe('c2#2');
    expect(() => firstIncarnation('c2#1')).toThrow();
  });
});

describe('maintenance', () => {
  it('each change raises the epoch, and a change proposed against an old epoch is refused', () => {
    const set = setMaintenance(NORMAL, 'NoScheduling', 0);
    expect(set).toEqual({ kind: 'MaintenanceSet', maintenance: { state: 'NoScheduling', epoch: 1 } });
    if (set.kind !== 'MaintenanceSet') throw new Error('not set');
    expect(setMaintenance(set.maintenance, 'Normal', 0)).toEqual({ kind: 'StaleMaintenanceEpoch', currentEpoch: 1 });
  });

  it('gates destructive operations by state, and a stale view whatever it says', () => {
    const noScheduling = { state: 'NoScheduling', epoch: 1 } as const;
    expect(gate(noScheduling, 'schedule', 1)).toEqual({ kind: 'Blocked', state: 'NoScheduling', epoch: 1 });
    expect(gate(noScheduling, 'release-promotion', 1)).toEqual({ kind: 'Allowed', epoch: 1 });
    expect(gate(noScheduling, 'release-promotion', 0)).toEqual({ kind: 'StaleMaintenanceView', currentEpoch: 1 });
    expect(gate({ state: 'FullMaintenance', epoch: 3 }, 'deployment-switch', 3).kind).toBe('Blocked');
    expect(gate(NORMAL, 'write', 0).kind).toBe('Allowed');
  });
});
