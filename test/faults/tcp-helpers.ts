// Loopback TCP helpers for the fault-proxy tests: an echo server, a server that sends a fixed
// payload and closes, and a client that records what it received, when, and how it ended.

import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TestServer {
  readonly port: number;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<TestServer> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Echoes every byte back; ends its side when the client ends. */
export function startEchoServer(): Promise<TestServer> {
  return listen(createServer({ allowHalfOpen: true }, (socket) => socket.pipe(socket)), new Set());
}

/** Sends `payload` to each client and ends its side at once. */
export function startSendAndCloseServer(payload: Buffer): Promise<TestServer> {
  return listen(createServer((socket) => socket.end(payload)), new Set());
}

interface Received {
  readonly chunks: ReadonlyArray<{ readonly bytes: number; readonly atMs: number }>;
  readonly data: Buffer;
  /** How the connection ended: `end` (FIN), an error code such as `ECONNRESET`, or `open` at the deadline. */
  readonly ending: string;
  /** Milliseconds from connect to the ending (or to the deadline). */
  readonly endedAtMs: number;
}

/**
 * Connects to `listen` (`host:port`), writes `payload` (if any), and collects what comes back until
 * the connection ends, `expectBytes` have arrived, or `deadlineMs` passes. Bounded in time.
 */
export function exchange(
  listen: string,
  options: { readonly payload?: Buffer; readonly expectBytes?: number; readonly deadlineMs: number },
): Promise<Received> {
  const [host, port] = [listen.slice(0, listen.lastIndexOf(':')), Number(listen.slice(listen.lastIndexOf(':') + 1))];
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: { bytes: number; atMs: number }[] = [];
    const parts: Buffer[] = [];
    let received = 0;
    let settled = false;
    const socket: Socket = connect({ host, port });
    const finish = (ending: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ chunks, data: Buffer.concat(parts), ending, endedAtMs: performance.now() - started });
    };
    const timer = setTimeout(() => finish('open'), options.deadlineMs);
    socket.on('connect', () => {
      if (options.payload !== undefined) socket.write(options.payload);
    });
    socket.on('data', (data: Buffer) => {
      parts.push(data);
      received += data.length;
      chunks.push({ bytes: data.length, atMs: performance.now() - started });
      if (options.expectBytes !== undefined && received >= options.expectBytes) finish('complete');
    });
    socket.on('end', () => finish('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    socket.on('close', () => finish('close'));
  });
}
