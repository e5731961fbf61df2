// The cluster doctor's consistency checks (model/cluster-doctor.ts; 001 §243–§244).

import { describe, expect, test } from 'vitest';
import { clusterDoctor } from '../../model/cluster-doctor.ts';

describe('cluster doctor', () => {
  const picture = { roles: [{ role: 'scheduler', epoch: 4, owner: 'c2#1' }], voters: ['c1', 'c2', 'c3'] };

  test('a store at or behind the committed epoch, and a role owned by a voter, are healthy', () => {
    expect(clusterDoctor([{ role: 'scheduler', epoch: 4 }], picture)).toEqual([]);
    expect(clusterDoctor([{ role: 'scheduler', epoch: 2 }], picture)).toEqual([]);
  });

  test('a store ahead of the coordination epoch, or of a role the coordination never assigned, is found (§243)', () => {
    expect(clusterDoctor([{ role: 'scheduler', epoch: 5 }], picture).map((f) => f.check)).toEqual(['db-epoch-ahead']);
    expect(clusterDoctor([{ role: 'release-coordinator', epoch: 1 }], picture)[0]!.message).toMatch(/epoch 1 for role release-coordinator, the coordination state 0/);
  });

  test('a role owned by a node that is not a voter is found (§244)', () => {
    expect(clusterDoctor([], { ...picture, voters: ['c1', 'c3'] }).map((f) => f.check)).toEqual(['role-owner-not-voter']);
  });
});
