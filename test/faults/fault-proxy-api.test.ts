// The fault proxy speaks Toxiproxy's HTTP API: toxiproxy-node-client drives every endpoint, and the status codes and bodies match Toxiproxy 2.x.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Toxiproxy } from 'toxiproxy-node-client';
import { startFaultProxy, type FaultProxyServer } from '../../adapters/faults/proxy/api-server.ts';
import { connectFaultProxy } from '../../adapters/faults/proxy/connect.ts';
import { exchange, startEchoServer, type TestServer } from './tcp-helpers.ts';

let api: FaultProxyServer;
let echo: TestServer;
let client: Toxiproxy;

beforeAll(async () => {
  echo = await startEchoServer();
  api = await startFaultProxy({ port: 0 });
  client = new Toxiproxy(api.url);
});

afterAll(async () => {
  await api.close();
  await echo.close();
});

const upstream = (): string => `127.0.0.1:${echo.port}`;

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

describe('proxies', () => {
  it('GET /version answers with a version document', async () => {
    expect(JSON.parse(await client.getVersion())).toEqual({ version: expect.stringMatching(/^2\./) });
  });

  it('POST /proxies creates (201) a proxy on a real loopback port that forwards to its upstream', async () => {
    const created = await raw('POST', '/proxies', { name: 'create-raw', listen: '127.0.0.1:0', upstream: upstream() });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'create-raw', upstream: upstream(), enabled: true, toxics: [] });
    const listen = (created.json as { listen: string }).listen;
    expect(listen).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    const got = await exchange(listen, { payload: Buffer.from('ping'), expectBytes: 4, deadlineMs: 5_000 });
    expect(got.data.toString()).toBe('ping');
    expect((await raw('DELETE', '/proxies/create-raw')).status).toBe(204);
  });

  it('answers 409 for a duplicate name, 404 for a missing proxy, 400 for a missing field', async () => {
    const proxy = await client.createProxy({ name: 'dup', listen: '127.0.0.1:0', upstream: upstream() });
    await expect(client.createProxy({ name: 'dup', listen: '127.0.0.1:0', upstream: upstream() })).rejects.toThrow('409');
    await expect(client.get('missing')).rejects.toThrow('404');
    expect(await raw('GET', '/proxies/missing')).toEqual({ status: 404, json: { error: 'proxy not found', status: 404 } });
    expect((await raw('POST', '/proxies', { name: 'no-upstream' })).status).toBe(400);
    expect((await raw('DELETE', '/proxies/missing')).status).toBe(404);
    await proxy.remove();
  });

  it('refuses non-loopback addresses', async () => {
    expect((await raw('POST', '/proxies', { name: 'wide', listen: '0.0.0.0:0', upstream: upstream() })).status).toBe(400);
    expect((await raw('POST', '/proxies', { name: 'far', listen: '127.0.0.1:0', upstream: '192.0.2.1:5432' })).status).toBe(400);
  });

  it('GET /proxies and GET /proxies/{name} list proxies with their toxics', async () => {
    const proxy = await client.createProxy({ name: 'listed', listen: '127.0.0.1:0', upstream: upstream() });
    await proxy.addToxic({ name: 'slow', type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: 1, jitter: 0 } });
    const all = await client.getAll();
    expect(all['listed']?.listen).toBe(proxy.listen);
    const shown = await raw('GET', '/proxies/listed');
    expect(shown.json).toMatchObject({ name: 'listed', toxics: [{ name: 'slow', type: 'latency' }] });
    await proxy.remove();
    expect(Object.keys(await client.getAll())).not.toContain('listed');
  });

  it('POST /proxies/{name} with enabled:false cuts live connections and refuses new ones; true restores on the same port', async () => {
    const proxy = await client.createProxy({ name: 'toggle', listen: '127.0.0.1:0', upstream: upstream() });
    const live = exchange(proxy.listen, { deadlineMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const down = await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
    expect(down.enabled).toBe(false);
    expect((await live).ending).not.toBe('open');
    expect((await exchange(proxy.listen, { payload: Buffer.from('x'), deadlineMs: 2_000 })).ending).toBe('ECONNREFUSED');
    const up = await proxy.update({ enabled: true, listen: proxy.listen, upstream: proxy.upstream });
    expect(up.listen).toBe(proxy.listen);
    expect((await exchange(proxy.listen, { payload: Buffer.from('y'), expectBytes: 1, deadlineMs: 5_000 })).ending).toBe('complete');
    await proxy.remove();
  });

  it('POST /populate creates (201) new proxies, keeps identical ones and replaces changed ones', async () => {
    const first = await client.populate([{ name: 'pop-a', listen: '127.0.0.1:0', upstream: upstream() }]);
    const listenA = first['pop-a']?.listen ?? '';
    const second = await raw('POST', '/populate', [
      { name: 'pop-a', listen: listenA, upstream: upstream() },
      { name: 'pop-b', listen: '127.0.0.1:0', upstream: upstream() },
    ]);
    expect(second.status).toBe(201);
    const proxies = (second.json as { proxies: { name: string; listen: string }[] }).proxies;
    expect(proxies.map((p) => p.name)).toEqual(['pop-a', 'pop-b']);
    expect(proxies[0]?.listen).toBe(listenA);
    expect((await raw('POST', '/populate', [{ name: 'pop-c' }])).status).toBe(400);
    await (await client.get('pop-a')).remove();
    await (await client.get('pop-b')).remove();
  });

  it('POST /reset (204) enables every proxy and removes every toxic', async () => {
    const proxy = await client.createProxy({ name: 'resettable', listen: '127.0.0.1:0', upstream: upstream() });
    await proxy.addToxic({ name: 'cut', type: 'timeout', stream: 'upstream', toxicity: 1, attributes: { timeout: 0 } });
    await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream });
    expect((await raw('POST', '/reset')).status).toBe(204);
    expect((await raw('GET', '/proxies/resettable')).json).toMatchObject({ enabled: true, toxics: [] });
    await proxy.remove();
  });
});

describe('toxics', () => {
  it('create, get, list, update and delete a toxic, with Toxiproxy defaults and errors', async () => {
    const proxy = await client.createProxy({ name: 'toxic-crud', listen: '127.0.0.1:0', upstream: upstream() });
    const created = await raw('POST', '/proxies/toxic-crud/toxics', { type: 'latency', attributes: { latency: 5 } });
    expect(created).toEqual({
      status: 200,
      json: { name: 'latency_downstream', type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: 5, jitter: 0 } },
    });
    const toxic = await proxy.getToxic<{ latency: number; jitter: number }>('latency_downstream');
    expect(toxic.attributes.latency).toBe(5);
    const updated = await toxic.update({ ...toxic.toJson(), attributes: { latency: 7, jitter: 1 }, toxicity: 0.5 });
    expect(updated.attributes).toEqual({ latency: 7, jitter: 1 });
    expect(updated.toxicity).toBe(0.5);
    expect((await raw('GET', '/proxies/toxic-crud/toxics')).json).toEqual([updated.toJson()]);
    await expect(proxy.addToxic({ name: 'latency_downstream', type: 'latency', stream: 'upstream', toxicity: 1, attributes: {} })).rejects.toThrow('409');
    expect((await raw('POST', '/proxies/toxic-crud/toxics', { type: 'nonsense' })).json).toEqual({ error: 'invalid toxic type', status: 400 });
    expect((await raw('POST', '/proxies/toxic-crud/toxics', { type: 'latency', stream: 'sideways' })).status).toBe(400);
    expect((await raw('POST', '/proxies/missing/toxics', { type: 'latency' })).status).toBe(404);
    await updated.remove();
    await expect(proxy.getToxic('latency_downstream')).rejects.toThrow('404');
    expect((await raw('DELETE', '/proxies/toxic-crud/toxics/latency_downstream')).status).toBe(404);
    await proxy.remove();
  });
});

describe('connectFaultProxy', () => {
  it('starts the embedded proxy without TOXIPROXY_URL and uses the given server with it', async () => {
    const embedded = await connectFaultProxy({});
    expect(embedded.kind).toBe('embedded');
    expect(JSON.parse(await new Toxiproxy(embedded.url).getVersion())).toHaveProperty('version');
    await embedded.close();
    const external = await connectFaultProxy({ TOXIPROXY_URL: `${api.url}/` });
    expect(external).toMatchObject({ kind: 'external', url: api.url });
    await external.close();
    expect(JSON.parse(await client.getVersion())).toHaveProperty('version');
  });
});
