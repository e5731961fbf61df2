// A TCP proxy in front of PostgreSQL that, when armed, forwards the next COMMIT to the server
// and then cuts the client off before the reply comes back: the commit happens, the client
// cannot know. Or it swallows the COMMIT and cuts the client off while the server side stays
// open, so the transaction lingers in progress. It can also refuse every new connection, as an
// unreachable server does.

import net from 'node:net';

export interface ReplyDroppingProxy {
  readonly port: number;
  /** Drop the reply of the next COMMIT that passes through. */
  armCommitReplyLoss(): void;
  /** Drop the next COMMIT itself and cut the client off; the server side stays open, idle in transaction. */
  armCommitLoss(): void;
  /** Refuse (reset) every connection made from now on. */
  refuseNewConnections(refuse: boolean): void;
  close(): Promise<void>;
}

const COMMIT_QUERY = Buffer.from('COMMIT\u0000');

export async function startReplyDroppingProxy(targetPort: number): Promise<ReplyDroppingProxy> {
  let armed: 'reply' | 'commit' | null = null;
  let refusing = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let cut = false;
    client.on('data', (chunk) => {
      if (armed === 'commit' && chunk.includes(COMMIT_QUERY)) {
        armed = null;
        cut = true;
        client.resetAndDestroy();
        return;
      }
      if (armed === 'reply' && chunk.includes(COMMIT_QUERY)) {
        armed = null;
        cut = true;
        upstream.write(chunk);
        // The server has the COMMIT; the client never hears back. The server side stays open a
        // little so the server processes the COMMIT before it sees the connection go.
        client.resetAndDestroy();
        setTimeout(() => upstream.destroy(), 300);
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!cut) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      if (!cut) upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    armCommitReplyLoss: () => {
      armed = 'reply';
    },
    armCommitLoss: () => {
      armed = 'commit';
    },
    refuseNewConnections: (refuse) => {
      refusing = refuse;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
