// One named proxy: a loopback listener, its upstream, its toxics and its live connections.
// `enabled: false` is Toxiproxy's "down": the listener closes, live connections are cut, new
// connections are refused until it is enabled again on the same address.

import { connect, createServer, type Server, type Socket } from 'node:net';
import { ApiError } from './api-error.ts';
import { ProxyLink } from './proxy-link.ts';
import { parseToxicCreate, parseToxicUpdate, type ToxicSpec } from './toxic-spec.ts';

interface ProxyJson {
  readonly name: string;
  readonly listen: string;
  readonly upstream: string;
  readonly enabled: boolean;
  readonly toxics: ReadonlyArray<ToxicSpec>;
}

interface HostPort {
  readonly host: string;
  readonly port: number;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/;

/** Parses `host:port` (or `[v6]:port`); this proxy only serves tests, so both ends must be loopback. */
function parseLoopbackAddress(field: 'listen' | 'upstream', address: string): HostPort {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(address);
  if (match === null) throw ApiError.badRequest(`${field} must be host:port, got ${JSON.stringify(address)}`);
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (port > 65535) throw ApiError.badRequest(`${field} port out of range: ${port}`);
  const resolved = host === '' ? '127.0.0.1' : host;
  if (!LOOPBACK.test(resolved)) throw ApiError.badRequest(`${field} must be a loopback address, got ${resolved}`);
  return { host: resolved === 'localhost' ? '127.0.0.1' : resolved, port };
}

function formatAddress({ host, port }: HostPort): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export class TcpProxy {
  private server: Server | undefined;
  private readonly links = new Set<ProxyLink>();
  private toxics: ToxicSpec[] = [];
  private listenAddress: HostPort;
  private upstreamAddress: HostPort;
  private enabled = false;

  constructor(
    readonly name: string,
    listen: string,
    upstream: string,
  ) {
    this.listenAddress = parseLoopbackAddress('listen', listen);
    this.upstreamAddress = parseLoopbackAddress('upstream', upstream);
  }

  toJSON(): ProxyJson {
    return {
      name: this.name,
      listen: formatAddress(this.listenAddress),
      upstream: formatAddress(this.upstreamAddress),
      enabled: this.enabled,
      toxics: [...this.toxics],
    };
  }

  async start(): Promise<void> {
    if (this.enabled) return;
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) => reject(new ApiError(`listen ${formatAddress(this.listenAddress)}: ${error.message}`, 500)));
      server.listen(this.listenAddress.port, this.listenAddress.host, () => resolve());
    });
    const bound = server.address();
    if (bound !== null && typeof bound === 'object') this.listenAddress = { host: bound.address, port: bound.port };
    this.server = server;
    this.enabled = true;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.enabled = false;
    for (const link of this.links) link.destroy();
    this.links.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Applies a POST /proxies/{name} body: any of enabled, listen, upstream. */
  async update(body: Readonly<Record<string, unknown>>): Promise<void> {
    const listen = body['listen'];
    const upstream = body['upstream'];
    const enabled = body['enabled'] ?? this.enabled;
    if (typeof enabled !== 'boolean') throw ApiError.badRequest('enabled must be a boolean');
    const nextListen = typeof listen === 'string' ? parseLoopbackAddress('listen', listen) : this.listenAddress;
    const nextUpstream = typeof upstream === 'string' ? parseLoopbackAddress('upstream', upstream) : this.upstreamAddress;
    const moved =
      formatAddress(nextListen) !== formatAddress(this.listenAddress) ||
      formatAddress(nextUpstream) !== formatAddress(this.upstreamAddress);
    if (moved || !enabled) await this.stop();
    this.listenAddress = nextListen;
    this.upstreamAddress = nextUpstream;
    if (enabled) await this.start();
  }

  listToxics(): ReadonlyArray<ToxicSpec> {
    return [...this.toxics];
  }

  getToxic(name: string): ToxicSpec {
    const spec = this.toxics.find((t) => t.name === name);
    if (spec === undefined) throw ApiError.notFound('toxic');
    return spec;
  }

  addToxic(body: unknown): ToxicSpec {
    const spec = parseToxicCreate(body);
    if (this.toxics.some((t) => t.name === spec.name)) throw ApiError.alreadyExists('toxic');
    this.toxics.push(spec);
    for (const link of this.links) link.addToxic(spec);
    return spec;
  }

  updateToxic(name: string, body: unknown): ToxicSpec {
    const index = this.toxics.findIndex((t) => t.name === name);
    const current = this.toxics[index];
    if (current === undefined) throw ApiError.notFound('toxic');
    const spec = parseToxicUpdate(current, body);
    this.toxics[index] = spec;
    for (const link of this.links) link.updateToxic(spec);
    return spec;
  }

  removeToxic(name: string): void {
    const spec = this.getToxic(name);
    this.toxics = this.toxics.filter((t) => t !== spec);
    for (const link of this.links) link.removeToxic(spec);
  }

  resetToxics(): void {
    for (const spec of [...this.toxics]) this.removeToxic(spec.name);
  }

  private accept(client: Socket): void {
    const upstream = connect({ ...this.upstreamAddress, allowHalfOpen: true });
    upstream.pause();
    const refuse = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', refuse);
    client.once('error', refuse);
    upstream.once('connect', () => {
      upstream.off('error', refuse);
      client.off('error', refuse);
      if (!this.enabled || client.destroyed) {
        refuse();
        return;
      }
      const link = new ProxyLink(client, upstream, this.toxics, (closed) => this.links.delete(closed));
      this.links.add(link);
      client.resume();
      upstream.resume();
    });
  }
}
