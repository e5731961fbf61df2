// The stress check of accepted writes (campaign/stress/checks/accepted-writes.ts), on hand-made
// histories: an Accepted answer names the version its write made and the write's own token.

import { describe, expect, test } from 'vitest';
import { checkAcceptedWrites } from '../../campaign/stress/checks/accepted-writes.ts';
import type { StressOp } from '../../campaign/stress/history.ts';

let id = 0;
const write = (client: string, token: number, expectedVersion: number, version: number, answeredToken = token): StressOp => ({
  id: id++,
  client,
  command: { kind: 'Mutate', scope: 's', aggregate: 'a', holder: client, token, expectedVersion },
  invokedAt: id * 10,
  completedAt: id * 10 + 5,
  status: 'ok',
  outcome: { kind: 'Accepted', version, token: answeredToken },
});

describe('stress: accepted writes', () => {
  test('writes that each make the expected version plus one pass', () => {
    expect(checkAcceptedWrites([write('c0', 1, 0, 1), write('c1', 2, 1, 2)])).toEqual([]);
  });

  test('an Accepted answer with another version or another token is a violation', () => {
    const found = checkAcceptedWrites([write('c0', 1, 0, 1), write('c1', 2, 0, 2), write('c1', 2, 2, 3, 9)]);
    const messages = found.map((v) => v.message).join('\n');
    expect(messages).toContain('a write expecting version 0 under token 2 was answered Accepted with version 2 under token 2');
    expect(messages).toContain('answered Accepted with version 3 under token 9');
  });
});
