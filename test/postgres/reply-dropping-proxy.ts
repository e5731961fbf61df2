// A TCP proxy in front of PostgreSQL that, when armed, forwards the next COMMIT to the server
// and then cuts the client off before the reply comes back: the commit happens, the client
// cannot know. Or it swallows the COMMIT and cuts the client off while the server side stays
// open, so the transaction lingers in progress. It can also refuse every new connection, as an
// unreachable server does.
//
// "A COMMIT" is whatever commits: a simple-protocol `COMMIT`, or an extended-protocol statement
// executed outside a transaction block (an autocommit statement commits at its Sync). To know
// which, the proxy follows the client's messages and tracks whether a transaction block is open
// (a simple query starting with BEGIN/START opens one; COMMIT, END, ROLLBACK or ABORT closes it).

import net from 'node:net';

export interface ReplyDroppingProxy {
  readonly port: number;
  /** Drop the reply of the next COMMIT that passes through. */
  armCommitReplyLoss(): void;
  /** Drop the next COMMIT itself and cut the client off; the server side stays open, idle in transaction. */
  armCommitLoss(): void;
  /** Refuse (reset) every connection made from now on. */
  refuseNewConnections(refuse: boolean): void;
  /** Cut every client off now; the server sides stay open (their backends do not notice). */
  cutClients(): void;
  close(): Promise<void>;
}

/**
 * Follows one client's byte stream message by message; `feed` answers whether the chunk holds a
 * message that commits (see the header).
 */
class ClientStream {
  private buffered = Buffer.alloc(0);
  private started = false;
  private inBlock = false;

  feed(chunk: Buffer): boolean {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    let commits = false;
    for (;;) {
      if (!this.started) {
        if (this.buffered.length < 8) return commits;
        const length = this.buffered.readInt32BE(0);
        if (this.buffered.length < length) return commits;
        // Protocol 3.0 startup; SSL/GSS requests and cancel requests are untyped too.
        if (this.buffered.readInt32BE(4) === 196608) this.started = true;
        this.buffered = this.buffered.subarray(length);
        continue;
      }
      if (this.buffered.length < 5) return commits;
      const length = this.buffered.readInt32BE(1);
      if (this.buffered.length < 1 + length) return commits;
      const type = String.fromCharCode(this.buffered[0]!);
      const body = this.buffered.subarray(5, 1 + length);
      this.buffered = this.buffered.subarray(1 + length);
      if (type === 'Q') {
        const text = body.toString('utf8').replace(/\u0000$/, '').trimStart().toUpperCase();
        if (/^(BEGIN|START)\b/.test(text)) this.inBlock = true;
        else if (/^(COMMIT|END)\b/.test(text)) {
          if (this.inBlock) commits = true;
          this.inBlock = false;
        } else if (/^(ROLLBACK|ABORT)\b/.test(text)) this.inBlock = false;
      } else if (type === 'E' && !this.inBlock) {
        commits = true;
      }
    }
  }
}

export async function startReplyDroppingProxy(targetPort: number): Promise<ReplyDroppingProxy> {
  let armed: 'reply' | 'commit' | null = null;
  let refusing = false;
  const sockets = new Set<net.Socket>();
  const cutters = new Set<() => void>();
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let cut = false;
    const stream = new ClientStream();
    cutters.add(() => {
      cut = true;
      client.resetAndDestroy();
    });
    client.on('data', (chunk: Buffer) => {
      const commits = stream.feed(chunk);
      if (armed === 'commit' && commits) {
        armed = null;
        cut = true;
        client.resetAndDestroy();
        return;
      }
      if (armed === 'reply' && commits) {
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
    cutClients: () => {
      for (const cutOff of cutters) cutOff();
      cutters.clear();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
