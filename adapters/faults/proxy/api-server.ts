// The HTTP API of the fault proxy, shaped like Toxiproxy's so that `toxiproxy-node-client` (or any
// Toxiproxy client) drives it, and a real Toxiproxy can stand in for it. Routes, status codes and
// bodies follow Toxiproxy 2.x: 201 on proxy create and populate, 204 on delete and reset, 404
// `{ error, status }` when a proxy or toxic is missing, 409 when one already exists.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ApiError } from './api-error.ts';
import { TcpProxy } from './tcp-proxy.ts';

/** Reported by GET /version: the Toxiproxy API level it speaks, tagged as this implementation. */
const FAULT_PROXY_VERSION = '2.12.0-fault-proxy';

/** Request bodies are small JSON documents; anything bigger is a client bug. */
const MAX_BODY_BYTES = 1 << 20;

export interface FaultProxyServer {
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:8474`. */
  readonly url: string;
  close(): Promise<void>;
}

interface Reply {
  readonly status: number;
  readonly body?: unknown;
}

class ProxyRegistry {
  readonly proxies = new Map<string, TcpProxy>();

  get(name: string): TcpProxy {
    const proxy = this.proxies.get(name);
    if (proxy === undefined) throw ApiError.notFound('proxy');
    return proxy;
  }

  async create(body: unknown): Promise<TcpProxy> {
    const input = asObject(body);
    const name = input['name'];
    const upstream = input['upstream'];
    const listen = input['listen'] ?? '127.0.0.1:0';
    const enabled = input['enabled'] ?? true;
    if (typeof name !== 'string' || name === '') throw ApiError.missingField('name');
    if (typeof upstream !== 'string' || upstream === '') throw ApiError.missingField('upstream');
    if (typeof listen !== 'string') throw ApiError.badRequest('listen must be a string');
    if (typeof enabled !== 'boolean') throw ApiError.badRequest('enabled must be a boolean');
    if (this.proxies.has(name)) throw ApiError.alreadyExists('proxy');
    const proxy = new TcpProxy(name, listen, upstream);
    if (enabled) await proxy.start();
    this.proxies.set(name, proxy);
    return proxy;
  }

  async remove(name: string): Promise<void> {
    const proxy = this.get(name);
    this.proxies.delete(name);
    await proxy.stop();
  }

  /** Create or replace each proxy; one with the same listen and upstream is kept as it is. */
  async populate(body: unknown): Promise<TcpProxy[]> {
    const inputs = Array.isArray(body) ? body : asObject(body)['proxies'];
    if (!Array.isArray(inputs)) throw ApiError.badRequest('expected an array of proxies');
    for (const input of inputs) {
      const fields = asObject(input);
      if (typeof fields['name'] !== 'string' || fields['name'] === '') throw ApiError.missingField('name');
      if (typeof fields['upstream'] !== 'string' || fields['upstream'] === '') throw ApiError.missingField('upstream');
    }
    const result: TcpProxy[] = [];
    for (const input of inputs) {
      const fields = asObject(input);
      const existing = this.proxies.get(fields['name'] as string);
      const json = existing?.toJSON();
      if (existing !== undefined && json?.listen === fields['listen'] && json?.upstream === fields['upstream']) {
        result.push(existing);
        continue;
      }
      if (existing !== undefined) await this.remove(existing.name);
      result.push(await this.create(input));
    }
    return result;
  }

  async reset(): Promise<void> {
    for (const proxy of this.proxies.values()) {
      await proxy.start();
      proxy.resetToxics();
    }
  }

  async closeAll(): Promise<void> {
    for (const name of [...this.proxies.keys()]) await this.remove(name);
  }
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.badRequest('expected a JSON object');
  }
  return body as Record<string, unknown>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) throw ApiError.badRequest('body too large');
    parts.push(part);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw ApiError.badRequest(error instanceof Error ? error.message : String(error));
  }
}

async function route(registry: ProxyRegistry, method: string, path: string, request: IncomingMessage): Promise<Reply> {
  const segments = path.split('/').filter((s) => s !== '').map(decodeURIComponent);
  const [root, proxyName, sub, toxicName, extra] = segments;
  const update = method === 'POST' || method === 'PATCH';

  if (root === 'version' && segments.length === 1 && method === 'GET') {
    return { status: 200, body: { version: FAULT_PROXY_VERSION } };
  }
  if (root === 'reset' && segments.length === 1 && method === 'POST') {
    await registry.reset();
    return { status: 204 };
  }
  if (root === 'populate' && segments.length === 1 && method === 'POST') {
    const proxies = await registry.populate(await readJson(request));
    return { status: 201, body: { proxies: proxies.map((p) => p.toJSON()) } };
  }
  if (root !== 'proxies' || extra !== undefined || (sub !== undefined && sub !== 'toxics')) {
    throw new ApiError('not found', 404);
  }
  if (proxyName === undefined) {
    if (method === 'GET') {
      return { status: 200, body: Object.fromEntries([...registry.proxies].map(([name, p]) => [name, p.toJSON()])) };
    }
    if (method === 'POST') return { status: 201, body: (await registry.create(await readJson(request))).toJSON() };
  } else if (sub === undefined) {
    if (method === 'GET') return { status: 200, body: registry.get(proxyName).toJSON() };
    if (update) {
      const proxy = registry.get(proxyName);
      await proxy.update(asObject(await readJson(request)));
      return { status: 200, body: proxy.toJSON() };
    }
    if (method === 'DELETE') {
      await registry.remove(proxyName);
      return { status: 204 };
    }
  } else if (toxicName === undefined) {
    if (method === 'GET') return { status: 200, body: registry.get(proxyName).listToxics() };
    if (method === 'POST') {
      const proxy = registry.get(proxyName);
      return { status: 200, body: proxy.addToxic(await readJson(request)) };
    }
  } else {
    if (method === 'GET') return { status: 200, body: registry.get(proxyName).getToxic(toxicName) };
    if (update) {
      const proxy = registry.get(proxyName);
      return { status: 200, body: proxy.updateToxic(toxicName, await readJson(request)) };
    }
    if (method === 'DELETE') {
      registry.get(proxyName).removeToxic(toxicName);
      return { status: 204 };
    }
  }
  throw new ApiError(`method ${method} not allowed`, 405);
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    response.writeHead(reply.status).end();
    return;
  }
  response.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(`${JSON.stringify(reply.body)}\n`);
}

/** Starts the fault proxy's API on loopback. `port: 0` picks a free port. */
export async function startFaultProxy(options: { readonly port: number }): Promise<FaultProxyServer> {
  const registry = new ProxyRegistry();
  // Requests are handled one at a time, as Toxiproxy's collection lock does, so that a toxic
  // created by one request is in place before the next request is looked at.
  let queue: Promise<void> = Promise.resolve();
  const server = createServer((request, response) => {
    queue = queue.then(async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      try {
        send(response, await route(registry, request.method ?? 'GET', url.pathname, request));
      } catch (error) {
        const apiError = error instanceof ApiError ? error : new ApiError(String(error), 500);
        send(response, { status: apiError.status, body: apiError.toJSON() });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('fault proxy API has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close(): Promise<void> {
      await queue;
      await registry.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
