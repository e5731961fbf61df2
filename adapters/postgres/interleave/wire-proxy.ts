// A PostgreSQL wire-protocol proxy that holds statements at the wire (controlled interleaving,
// docs/ARCHITECTURE.md "Controlled interleaving"). One proxy serves one session of the run: the
// session's store connects to the proxy's port instead of the server, and every connection it
// opens becomes a lane. The start-up exchange (authentication, parameters, the backend's pid)
// passes straight through; after the server's first ReadyForQuery, the client's messages are cut
// into units, each ending with a simple Query ('Q') or a Sync ('S') message, and every unit is
// held until the gate releases it. A unit is finished when the server answers it with
// ReadyForQuery ('Z'), one per Query and one per Sync, errors included. Server bytes are never
// held. Terminate ('X') passes at once. A request for SSL or GSS encryption is declined by the
// proxy itself ('N'), as a server without encryption declines it. Nothing here parses SQL: a
// store written in any language is held the same way, as long as each of its statements ends
// with a Query or a Sync (the simple and the extended query protocol). COPY, function calls and
// portals run by Flush alone never end a unit: a batch that meets them stalls and fails.
//
// Two things the proxy adds, so that lock cycles are broken by the gate, not by the server's
// timer: start-up parameters of its own (`deadlock_timeout`, where the server allows it), and a
// lane armed as a cycle's victim, whose cancelled statement (57014) reaches its store as the error
// the server's deadlock detector gives (40P01).

import net from 'node:net';
import { recordParses, unitSql } from './wire-sql.ts';

/** Start-up codes of the requests for an encrypted connection (SSLRequest, GSSENCRequest). */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** One connection of a session through the proxy. */
export class Lane {
  /** Units waiting for the gate, oldest first. */
  readonly held: Buffer[] = [];
  /** A released unit that the server has not answered yet. */
  running = false;
  /** The server process serving this connection (BackendKeyData), once known. */
  pid = 0;
  closed = false;
  private ready = false;
  private fromClient = Buffer.alloc(0);
  private fromServer = Buffer.alloc(0);
  private startupSeen = false;
  /** The running statement was cancelled to break a lock cycle: its 57014 is answered as 40P01. */
  private victim = false;
  /** Order of the last release over all lanes of the proxy's gate: a cycle's victim is its statement released first. */
  releasedAt = 0;
  /** Statements this connection prepared, by name (wire-sql.ts). */
  private readonly prepared = new Map<string, string>();

  constructor(
    readonly session: string,
    readonly ordinal: number,
    private readonly client: net.Socket,
    private readonly server: net.Socket,
    private readonly changed: () => void,
    private readonly startupParameters: ReadonlyArray<readonly [string, string]> = [],
  ) {}

  /** The SQL text of the oldest held unit ('' when none is held or it runs no statement). */
  heldSql(): string {
    const unit = this.held[0];
    return unit === undefined ? '' : unitSql(unit, this.prepared);
  }

  /** Sends the oldest held unit to the server. */
  release(order: number): void {
    const unit = this.held.shift();
    if (unit === undefined) throw new Error(`lane ${this.session}/${this.ordinal} has nothing to release`);
    this.running = true;
    this.releasedAt = order;
    this.server.write(unit);
  }

  /** The running statement is about to be cancelled as a lock cycle's victim. */
  armAsDeadlockVictim(): void {
    this.victim = true;
  }

  /** A victim's cancel has not been answered yet. */
  get cancelling(): boolean {
    return this.victim && this.running;
  }

  clientData(chunk: Buffer): void {
    this.fromClient = Buffer.concat([this.fromClient, chunk]);
    while (!this.startupSeen) {
      // The start-up message has no type byte: a length and a protocol number.
      if (this.fromClient.length < 8) return;
      const length = this.fromClient.readInt32BE(0);
      if (this.fromClient.length < length) return;
      const message = this.fromClient.subarray(0, length);
      this.fromClient = this.fromClient.subarray(length);
      const code = message.readInt32BE(4);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        // The proxy speaks plain TCP: it declines encryption itself, as a server without it does.
        this.client.write('N');
        continue;
      }
      this.startupSeen = true;
      this.server.write(withParameters(message, this.startupParameters));
    }
    if (!this.ready) {
      // Authentication: passes as it comes.
      if (this.fromClient.length > 0) this.server.write(this.fromClient);
      this.fromClient = Buffer.alloc(0);
      return;
    }
    this.cutUnits();
  }

  private cutUnits(): void {
    let offset = 0;
    let unitStart = 0;
    while (this.fromClient.length - offset >= 5) {
      const type = String.fromCharCode(this.fromClient[offset]!);
      const end = offset + 1 + this.fromClient.readInt32BE(offset + 1);
      if (end > this.fromClient.length) break;
      offset = end;
      if (type === 'X') {
        this.server.write(this.fromClient.subarray(unitStart, end));
        unitStart = end;
      } else if (type === 'Q' || type === 'S') {
        const unit = Buffer.from(this.fromClient.subarray(unitStart, end));
        recordParses(unit, this.prepared);
        this.held.push(unit);
        unitStart = end;
        this.changed();
      }
    }
    this.fromClient = this.fromClient.subarray(unitStart);
  }

  /** Server bytes go on message by message (an armed victim's error rewritten), never held back. */
  serverData(chunk: Buffer): void {
    this.fromServer = Buffer.concat([this.fromServer, chunk]);
    let offset = 0;
    while (this.fromServer.length - offset >= 5) {
      const type = String.fromCharCode(this.fromServer[offset]!);
      const end = offset + 1 + this.fromServer.readInt32BE(offset + 1);
      if (end > this.fromServer.length) break;
      const message = this.fromServer.subarray(offset, end);
      if (type === 'K') this.pid = this.fromServer.readInt32BE(offset + 5);
      if (type === 'E' && this.victim) {
        this.victim = false;
        this.client.write(asDeadlock(message));
      } else {
        this.client.write(message);
      }
      if (type === 'Z') this.readyForQuery();
      offset = end;
    }
    this.fromServer = this.fromServer.subarray(offset);
  }

  private readyForQuery(): void {
    // A unit that ended before its cancel reached it: nothing is left to rewrite.
    this.victim = false;
    if (!this.ready) {
      // Start-up is over: from now on the client's messages are cut into units.
      this.ready = true;
      return;
    }
    this.running = false;
    this.changed();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.running = false;
    this.held.length = 0;
    this.client.destroy();
    this.server.destroy();
    this.changed();
  }
}

/** A start-up message with `parameters` added (or replacing the client's own of the same name). */
function withParameters(message: Buffer, parameters: ReadonlyArray<readonly [string, string]>): Buffer {
  // Only a protocol-3 start-up message carries parameters (a CancelRequest is a fixed packet).
  if (parameters.length === 0 || message.readInt32BE(4) >>> 16 !== 3) return message;
  const names = new Set(parameters.map(([name]) => name));
  const fields = message.subarray(8, message.length - 1).toString('utf8').split('\0');
  const pairs: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (!names.has(fields[i]!)) pairs.push(fields[i]!, fields[i + 1]!);
  for (const [name, value] of parameters) pairs.push(name, value);
  const body = Buffer.from(`${pairs.join('\0')}\0\0`, 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(message.readInt32BE(4), 4);
  body.copy(out, 8);
  return out;
}

/** An ErrorResponse for a cancelled statement (57014), answered as the server's deadlock error (40P01). */
function asDeadlock(message: Buffer): Buffer {
  const fields: Array<[string, string]> = [];
  let at = 5;
  while (at < message.length && message[at] !== 0) {
    const code = String.fromCharCode(message[at]!);
    const stop = message.indexOf(0, at + 1);
    fields.push([code, message.subarray(at + 1, stop).toString('utf8')]);
    at = stop + 1;
  }
  if (!fields.some(([code, value]) => code === 'C' && value === '57014')) return message;
  const rewritten = fields
    .filter(([code]) => code !== 'D')
    .map(([code, value]): [string, string] => (code === 'C' ? [code, '40P01'] : code === 'M' ? [code, 'deadlock detected'] : [code, value]));
  rewritten.push(['D', 'The statement was on a lock cycle, the first of it released by the schedule; the testbed broke the cycle in place of the server.']);
  const body = Buffer.from(`${rewritten.map(([code, value]) => `${code}${value}\0`).join('')}\0`, 'utf8');
  const out = Buffer.alloc(5 + body.length);
  out.write('E', 0, 'latin1');
  out.writeInt32BE(4 + body.length, 1);
  body.copy(out, 5);
  return out;
}

/** The proxy of one session: a local port whose connections become lanes to the server. */
export class SessionProxy {
  readonly lanes: Lane[] = [];
  private readonly listener: net.Server;
  private port = 0;

  constructor(
    readonly session: string,
    private readonly upstream: { readonly host: string; readonly port: number },
    private readonly changed: () => void,
    /** Start-up parameters every connection of the session gets (statement-gate.ts `CYCLE_PARAMETERS`). */
    private readonly startupParameters: ReadonlyArray<readonly [string, string]> = [],
  ) {
    this.listener = net.createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.listener.once('error', reject);
      this.listener.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.listener.address() as net.AddressInfo).port;
    return this.port;
  }

  private accept(client: net.Socket): void {
    client.setNoDelay(true);
    const server = net.connect(this.upstream.port, this.upstream.host);
    server.setNoDelay(true);
    const lane = new Lane(this.session, this.lanes.length, client, server, this.changed, this.startupParameters);
    this.lanes.push(lane);
    client.on('data', (chunk: Buffer) => {
      try {
        lane.clientData(chunk);
      } catch {
        lane.close();
      }
    });
    server.on('data', (chunk: Buffer) => lane.serverData(chunk));
    for (const socket of [client, server]) {
      socket.on('error', () => lane.close());
      socket.on('close', () => lane.close());
    }
  }

  async close(): Promise<void> {
    for (const lane of this.lanes) lane.close();
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
  }
}
