// Each fault-proxy toxic does to a live TCP connection what Toxiproxy's toxic of that name does (timing checked as lower bounds and ordering only).

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Toxiproxy, type Proxy } from 'toxiproxy-node-client';
import { startFaultProxy, type FaultProxyServer } from '../../adapters/faults/proxy/api-server.ts';
import { exchange, startEchoServer, startSendAndCloseServer, type TestServer } from './tcp-helpers.ts';

let api: FaultProxyServer;
let echo: TestServer;
let sender: TestServer;
let client: Toxiproxy;
const PAYLOAD = Buffer.alloc(4_000, 'abcdefghij');
/** Timer slack: a noisy machine may fire a timer a little early relative to performance.now(). */
const SLACK_MS = 5;

beforeAll(async () => {
  echo = await startEchoServer();
  sender = await startSendAndCloseServer(PAYLOAD);
  api = await startFaultProxy({ port: 0 });
  client = new Toxiproxy(api.url);
});

afterAll(async () => {
  await api.close();
  await echo.close();
  await sender.close();
});

let counter = 0;
async function proxyTo(server: TestServer): Promise<Proxy> {
  counter += 1;
  return client.createProxy({ name: `toxic-${counter}`, listen: '127.0.0.1:0', upstream: `127.0.0.1:${server.port}` });
}

const echoOnce = (proxy: Proxy, deadlineMs = 5_000) =>
  exchange(proxy.listen, { payload: Buffer.from('hello'), expectBytes: 5, deadlineMs });

describe('toxics', () => {
  it('latency delays the reply by at least latency - jitter', async () => {
    const proxy = await proxyTo(echo);
    const baseline = await echoOnce(proxy);
    await proxy.addToxic({ name: 'slow', type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: 300, jitter: 50 } });
    const slowed = await echoOnce(proxy);
    expect(slowed.ending).toBe('complete');
    expect(slowed.data.toString()).toBe('hello');
    expect(slowed.endedAtMs).toBeGreaterThanOrEqual(250 - SLACK_MS);
    expect(slowed.endedAtMs).toBeGreaterThan(baseline.endedAtMs);
    await proxy.remove();
  });

  it('latency on the upstream stream delays the request the same way', async () => {
    const proxy = await proxyTo(echo);
    await proxy.addToxic({ name: 'slow-up', type: 'latency', stream: 'upstream', toxicity: 1, attributes: { latency: 200, jitter: 0 } });
    expect((await echoOnce(proxy)).endedAtMs).toBeGreaterThanOrEqual(200 - SLACK_MS);
    await proxy.remove();
  });

  it('timeout 0 drops all data and keeps the connection open until the toxic is removed', async () => {
    const proxy = await proxyTo(echo);
    const toxic = await proxy.addToxic({ name: 'hold', type: 'timeout', stream: 'upstream', toxicity: 1, attributes: { timeout: 0 } });
    const held = await echoOnce(proxy, 400);
    expect(held).toMatchObject({ ending: 'open', data: Buffer.alloc(0) });
    await toxic.remove();
    expect((await echoOnce(proxy)).ending).toBe('complete');
    await proxy.remove();
  });

  it('timeout > 0 drops data and closes the connection after the timeout', async () => {
    const proxy = await proxyTo(echo);
    await proxy.addToxic({ name: 'cut', type: 'timeout', stream: 'downstream', toxicity: 1, attributes: { timeout: 250 } });
    const cut = await echoOnce(proxy);
    expect(cut.data.length).toBe(0);
    expect(['end', 'close', 'ECONNRESET']).toContain(cut.ending);
    expect(cut.endedAtMs).toBeGreaterThanOrEqual(250 - SLACK_MS);
    await proxy.remove();
  });

  it('reset_peer resets the connection (ECONNRESET) after its timeout once data arrives, and the data is lost', async () => {
    const proxy = await proxyTo(echo);
    await proxy.addToxic({ name: 'rst', type: 'reset_peer', stream: 'downstream', toxicity: 1, attributes: { timeout: 200 } });
    const reset = await echoOnce(proxy);
    expect(reset.ending).toBe('ECONNRESET');
    expect(reset.data.length).toBe(0);
    expect(reset.endedAtMs).toBeGreaterThanOrEqual(200 - SLACK_MS);
    await proxy.remove();
  });

  it('limit_data lets exactly `bytes` through, then closes', async () => {
    const proxy = await proxyTo(sender);
    await proxy.addToxic({ name: 'limit', type: 'limit_data', stream: 'downstream', toxicity: 1, attributes: { bytes: 1_000 } });
    const limited = await exchange(proxy.listen, { deadlineMs: 5_000 });
    expect(limited.data).toEqual(PAYLOAD.subarray(0, 1_000));
    expect(['end', 'close']).toContain(limited.ending);
    await proxy.remove();
  });

  it('slicer delivers the data intact in many small, spaced pieces', async () => {
    const proxy = await proxyTo(sender);
    await proxy.addToxic({ name: 'slices', type: 'slicer', stream: 'downstream', toxicity: 1, attributes: { average_size: 100, size_variation: 20, delay: 2_000 } });
    const sliced = await exchange(proxy.listen, { expectBytes: PAYLOAD.length, deadlineMs: 10_000 });
    expect(sliced.data).toEqual(PAYLOAD);
    // 40 slices 2 ms apart; TCP may coalesce some on the way, but not all of them.
    expect(sliced.chunks.length).toBeGreaterThan(5);
    expect(sliced.endedAtMs).toBeGreaterThanOrEqual(39 * 2 - SLACK_MS);
    await proxy.remove();
  });

  it('bandwidth limits throughput to rate KB/s', async () => {
    const proxy = await proxyTo(sender);
    await proxy.addToxic({ name: 'thin', type: 'bandwidth', stream: 'downstream', toxicity: 1, attributes: { rate: 10 } });
    const thin = await exchange(proxy.listen, { expectBytes: PAYLOAD.length, deadlineMs: 10_000 });
    expect(thin.data).toEqual(PAYLOAD);
    // 4,000 bytes at 10 KB/s (10 bytes per ms) take 400 ms, sent in 100 ms pieces of 1,000 bytes.
    expect(thin.endedAtMs).toBeGreaterThanOrEqual(300);
    expect(thin.chunks.length).toBeGreaterThanOrEqual(3);
    await proxy.remove();
  });

  it('slow_close holds back the end of the stream for `delay` ms after the data', async () => {
    const proxy = await proxyTo(sender);
    await proxy.addToxic({ name: 'linger', type: 'slow_close', stream: 'downstream', toxicity: 1, attributes: { delay: 300 } });
    const slow = await exchange(proxy.listen, { deadlineMs: 5_000 });
    expect(slow.data).toEqual(PAYLOAD);
    expect(slow.ending).toBe('end');
    const lastData = slow.chunks.at(-1)?.atMs ?? 0;
    expect(slow.endedAtMs - lastData).toBeGreaterThanOrEqual(300 - SLACK_MS - 50);
    expect(slow.endedAtMs).toBeGreaterThanOrEqual(300 - SLACK_MS);
    await proxy.remove();
  });

  it('toxicity 0 leaves every connection untouched', async () => {
    const proxy = await proxyTo(echo);
    await proxy.addToxic({ name: 'never', type: 'reset_peer', stream: 'downstream', toxicity: 0, attributes: { timeout: 0 } });
    expect((await echoOnce(proxy)).ending).toBe('complete');
    await proxy.remove();
  });

  it('a toxic added to a live connection applies to its next data, and removing it releases the held data', async () => {
    const proxy = await proxyTo(echo);
    const [host, port] = proxy.listen.split(':');
    const socket = connect({ host: host ?? '', port: Number(port) });
    const arrivals: { text: string; atMs: number }[] = [];
    socket.on('data', (data: Buffer) => arrivals.push({ text: data.toString(), atMs: performance.now() }));
    const until = async (count: number, deadlineMs: number): Promise<void> => {
      const end = performance.now() + deadlineMs;
      while (arrivals.length < count && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    socket.write('a');
    await until(1, 5_000);
    expect(arrivals.map((a) => a.text)).toEqual(['a']);
    const toxic = await proxy.addToxic({ name: 'late', type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: 60_000, jitter: 0 } });
    socket.write('b');
    await until(2, 300);
    expect(arrivals.map((a) => a.text)).toEqual(['a']);
    const removedAt = performance.now();
    await toxic.remove();
    await until(2, 5_000);
    expect(arrivals.map((a) => a.text)).toEqual(['a', 'b']);
    expect(arrivals[1]?.atMs).toBeGreaterThanOrEqual(removedAt);
    socket.destroy();
    await proxy.remove();
  });
});
