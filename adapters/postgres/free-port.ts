// Free ports for the servers this process starts (local-server.ts, harness.ts, the real-fault
// cluster).

import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 for a server to listen on, drawn below the kernel's ephemeral range
 * (ip_local_port_range): a port from that range can be taken by any outgoing connection, or any
 * `listen(0)`, between the moment it is found free and the moment the server binds it. Falls back
 * to a port the kernel assigns when no port below the range is free.
 */
export async function freePort(): Promise<number> {
  const lowest = ephemeralLow();
  for (let attempt = 0; attempt < 50 && lowest > PORT_FLOOR + 1; attempt++) {
    const port = PORT_FLOOR + Math.floor(Math.random() * (lowest - PORT_FLOOR));
    if (await bindable(port)) return port;
  }
  return kernelPort();
}

/** Ports below this are left to services the machine may run. */
const PORT_FLOOR = 20_000;

/** The first port of the kernel's ephemeral range (Linux); 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  server.unref();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

async function kernelPort(): Promise<number> {
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== 'object') throw new Error('no port assigned');
  return address.port;
}
