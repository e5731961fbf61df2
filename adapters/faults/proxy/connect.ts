// Picks the fault proxy a run uses: a real Toxiproxy when `TOXIPROXY_URL` names one, otherwise the
// embedded compatible proxy started on a free loopback port.

import { startFaultProxy } from './api-server.ts';

export interface FaultProxyHandle {
  /** Base URL of a Toxiproxy-compatible HTTP API. */
  readonly url: string;
  readonly kind: 'embedded' | 'external';
  /** Stops the embedded proxy. An external Toxiproxy outlives the run: its proxies are removed by whoever created them. */
  close(): Promise<void>;
}

export async function connectFaultProxy(env: NodeJS.ProcessEnv = process.env): Promise<FaultProxyHandle> {
  const external = env['TOXIPROXY_URL'];
  if (external !== undefined && external !== '') {
    const url = external.replace(/\/+$/, '');
    return {
      url,
      kind: 'external',
      close: () => Promise.resolve(),
    };
  }
  const server = await startFaultProxy({ port: 0 });
  return { url: server.url, kind: 'embedded', close: () => server.close() };
}
