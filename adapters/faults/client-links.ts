// The clients' side of the real faults: each declared client reaches each server through its own
// fault-proxy link, so a partition, a lost reply or added latency can single out one client. The
// links also know which server is the primary now, and move every client there on failover.

import type { Proxy, Toxiproxy } from 'toxiproxy-node-client';
import type { ServerName } from './postgres-cluster.ts';
import type { RealFaultOutcome } from '../../faults/package.ts';

type FaultValue = Readonly<Record<string, unknown>>;

/** Adds a toxic; one of the same name already in place (the fault applied twice) is kept. */
async function addToxicOnce(proxy: Proxy, body: Parameters<Proxy['addToxic']>[0]): Promise<void> {
  try {
    await proxy.addToxic(body);
  } catch (error) {
    if (!(error instanceof Error && error.message.includes('409'))) throw error;
  }
}

function stringList(value: unknown): ReadonlyArray<string> | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export class ClientLinks {
  private current: ServerName = 'primary';
  private readonly lossTimers = new Set<NodeJS.Timeout>();

  private constructor(
    /** Per client, its proxy to each server. */
    private readonly links: ReadonlyMap<string, Readonly<Record<ServerName, Proxy>>>,
    private readonly lossWindowMsMax: number,
  ) {}

  /** Creates one proxy per client per server (`upstreamPort` gives each server's port). */
  static async create(
    toxiproxy: Toxiproxy,
    clients: ReadonlyArray<string>,
    upstreamPort: (server: ServerName) => number,
    lossWindowMsMax: number,
  ): Promise<ClientLinks> {
    const links = new Map<string, Record<ServerName, Proxy>>();
    const proxyTo = (id: string, server: ServerName): Promise<Proxy> => {
      const port = upstreamPort(server);
      return toxiproxy.createProxy({ name: `${id}-${server}-${port}`, listen: '127.0.0.1:0', upstream: `127.0.0.1:${port}` });
    };
    const result = new ClientLinks(links, lossWindowMsMax);
    try {
      for (const id of clients) {
        const primary = await proxyTo(id, 'primary');
        try {
          links.set(id, { primary, replica: await proxyTo(id, 'replica') });
        } catch (error) {
          await primary.remove().catch(() => undefined);
          throw error;
        }
      }
      return result;
    } catch (error) {
      await result.close();
      throw error;
    }
  }

  get primary(): ServerName {
    return this.current;
  }

  has(clientId: string): boolean {
    return this.links.has(clientId);
  }

  connectionStringFor(clientId: string): string {
    const proxy = this.links.get(clientId)?.[this.current];
    if (proxy === undefined) throw new Error(`unknown client ${clientId}: declare it in RealFaultDriverOptions.clients`);
    return `postgresql://postgres@${proxy.listen}/postgres?application_name=${encodeURIComponent(clientId)}`;
  }

  /** Takes every client off the old primary (its links go down, cutting live sessions) onto `server`. */
  async repoint(server: ServerName): Promise<void> {
    for (const proxies of this.links.values()) {
      const old = proxies[this.current];
      await old.update({ enabled: false, listen: old.listen, upstream: old.upstream });
    }
    this.current = server;
  }

  /** The current-server proxy of a declared client. */
  private proxyOf(clientId: string): Proxy {
    const proxy = this.links.get(clientId)?.[this.current];
    if (proxy === undefined) throw new Error(`unknown client ${clientId}`);
    return proxy;
  }

  /** The clients a fault names in `clients` (all clients when it names none). */
  private clientsOf(value: FaultValue): ReadonlyArray<string> {
    return stringList(value['clients']) ?? [...this.links.keys()];
  }

  /**
   * Which client links a partition or heal `{ from, to }` touches, and in which directions:
   * `upstream` carries client→db, `downstream` db→client. A reason when the link is not a real one.
   */
  private partitionedLinks(value: FaultValue): { clients: ReadonlyArray<string>; streams: ReadonlyArray<'upstream' | 'downstream'> } | string {
    const { from, to } = value;
    if (from === undefined && to === undefined) return { clients: this.clientsOf(value), streams: ['upstream', 'downstream'] };
    if (from !== 'db' && to !== 'db') return `a partition between ${String(from)} and ${String(to)} does not involve the database`;
    const other = String(from === 'db' ? to : from);
    if (!this.links.has(other)) return `${other} has no database connection of its own in this run; the simulator drops its messages`;
    const oneWay = value['oneWay'] === true;
    const streams = oneWay ? [from === 'db' ? ('downstream' as const) : ('upstream' as const)] : (['upstream', 'downstream'] as const);
    return { clients: [other], streams };
  }

  async partition(value: FaultValue): Promise<RealFaultOutcome> {
    const links = this.partitionedLinks(value);
    if (typeof links === 'string') return { kind: 'simulated-only', reason: links };
    const proxies = links.clients.map((id) => this.proxyOf(id));
    const names = proxies.map((p) => p.name).join(', ');
    if (value['mode'] === 'down') {
      for (const proxy of proxies) await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
      return { kind: 'applied', action: `proxy down (connections cut, new ones refused) for ${names}` };
    }
    const timeout = numberOr(value['timeoutMs'], 0);
    for (const proxy of proxies) {
      for (const stream of links.streams) {
        await addToxicOnce(proxy, { name: `partition-${stream}`, type: 'timeout', stream, toxicity: 1, attributes: { timeout } });
      }
    }
    const effect = timeout === 0 ? 'data dropped until heal' : `closed after ${timeout} ms`;
    return { kind: 'applied', action: `timeout toxic (${effect}) on ${links.streams.join(' and ')} for ${names}` };
  }

  async heal(value: FaultValue): Promise<RealFaultOutcome> {
    const links = this.partitionedLinks(value);
    if (typeof links === 'string') return { kind: 'simulated-only', reason: links };
    return { kind: 'applied', action: await this.healLinks(links.clients) };
  }

  async messageLoss(value: FaultValue): Promise<RealFaultOutcome> {
    const proxies = this.clientsOf(value).map((id) => this.proxyOf(id));
    const names = proxies.map((p) => p.name).join(', ');
    const toxicity = Math.min(1, numberOr(value['pct'], 100) / 100);
    const mode = value['mode'] ?? (value['delayMs'] !== undefined ? 'delay' : 'lost-reply');
    let name: string;
    let action: string;
    if (mode === 'delay') {
      const latency = numberOr(value['delayMs'], 0);
      const jitter = numberOr(value['jitterMs'], 0);
      name = 'delay';
      for (const proxy of proxies) {
        await addToxicOnce(proxy, { name, type: 'latency', stream: 'downstream', toxicity, attributes: { latency, jitter } });
      }
      action = `latency toxic ${latency}±${jitter} ms on replies`;
    } else {
      // A lost reply comes after the server acted on the request: the request goes upstream
      // untouched, the first reply bytes are dropped and the connection reset, so the outcome is unknown.
      const stream = mode === 'lost-request' ? 'upstream' : 'downstream';
      name = `lost-${stream}`;
      for (const proxy of proxies) {
        await addToxicOnce(proxy, { name, type: 'reset_peer', stream, toxicity, attributes: { timeout: 0 } });
      }
      action = `reset_peer on the ${stream} stream (${String(mode)})`;
    }
    const windowMs = value['durationMs'] === undefined ? undefined : Math.min(numberOr(value['durationMs'], 0), this.lossWindowMsMax);
    if (windowMs !== undefined) this.removeLater(proxies, name, windowMs);
    const until = windowMs === undefined ? 'until heal' : `for ${windowMs} ms`;
    return { kind: 'applied', action: `${action}, toxicity ${toxicity}, ${until}, for ${names}` };
  }

  private removeLater(proxies: ReadonlyArray<Proxy>, toxic: string, afterMs: number): void {
    const timer = setTimeout(() => {
      this.lossTimers.delete(timer);
      for (const proxy of proxies) {
        // The toxic may be gone already (healed, or the proxy closed): nothing left to undo then.
        void proxy.getToxic(toxic).then((t) => t.remove()).catch(() => undefined);
      }
    }, afterMs);
    this.lossTimers.add(timer);
  }

  /** Removes every toxic from these clients' proxies to the current primary and enables them. */
  async healLinks(clients: ReadonlyArray<string>): Promise<string> {
    let count = 0;
    for (const id of clients) {
      const proxy = this.proxyOf(id);
      // The client has no call that lists toxics, so this reads Toxiproxy's GET /proxies/{name}/toxics.
      const response = await fetch(`${proxy.getPath()}/toxics`);
      if (!response.ok) throw new Error(`listing toxics of ${proxy.name}: HTTP ${response.status}`);
      for (const toxic of (await response.json()) as ReadonlyArray<{ readonly name: string }>) {
        await (await proxy.getToxic(toxic.name)).remove();
        count += 1;
      }
      await proxy.update({ enabled: true, listen: proxy.listen, upstream: proxy.upstream });
    }
    return `${count} toxic(s) removed, proxies of ${clients.join(', ')} to ${this.current} enabled`;
  }

  /** Heals every link of every client. */
  healAll(): Promise<string> {
    return this.healLinks([...this.links.keys()]);
  }

  async close(): Promise<void> {
    for (const timer of this.lossTimers) clearTimeout(timer);
    this.lossTimers.clear();
    for (const proxies of this.links.values()) {
      await proxies.primary.remove().catch(() => undefined);
      await proxies.replica.remove().catch(() => undefined);
    }
  }
}
