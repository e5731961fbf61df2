// When the process that started a cluster dies without closing it (even by SIGKILL), its servers, ports and temp dir go with it.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventually, portOpen, processAlive, startFixture } from './pg-helpers.ts';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cluster-then-hang.ts');

interface Started {
  readonly dataDir: string;
  readonly pids: ReadonlyArray<number>;
  readonly ports: ReadonlyArray<number>;
}

describe('process reaper', () => {
  it('stops the servers and removes the temp dir after the owning process is SIGKILLed', async () => {
    const { child, started } = await startFixture<Started>(FIXTURE, 'cluster');
    expect(started.pids.every((pid) => processAlive(pid))).toBe(true);
    child.kill('SIGKILL');
    expect(await eventually(async () => started.pids.every((pid) => !processAlive(pid)), 10_000)).toBe(true);
    expect(await eventually(async () => !existsSync(dirname(started.dataDir)), 10_000)).toBe(true);
    for (const port of started.ports) expect(await portOpen(port)).toBe(false);
  });
});
