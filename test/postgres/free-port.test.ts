// adapters/postgres/free-port.ts: a server's port is drawn below the kernel's ephemeral range, so
// no outgoing connection (or listen(0)) of this or another process can take it between the
// moment it is found free and the moment the server binds it.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { freePort } from '../../adapters/postgres/free-port.ts';

test('a free port lies below the ephemeral range and can be bound', async () => {
  const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(low);
  }
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ports[0], '127.0.0.1', () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
