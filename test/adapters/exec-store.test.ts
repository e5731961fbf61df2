// adapters/exec-store.ts on its own: a process that stops answering is stopped, and every later
// call fails naming why; a reply written just before the process exits is still read; a breach
// of the protocol with nothing in flight still breaks the channel.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createExecStore } from '../../adapters/exec-store.ts';
import { shellWord } from '../../sim/run.ts';

const time = { now: () => 0 };
const acquire = { kind: 'Acquire', scope: 's', holder: 'a', ttlMs: 100 } as const;
const INIT = `read line; echo '{"id":1,"type":"init_ok"}'`;

describe('exec store channel', () => {
  test('a call that gets no answer in time stops the process group, and later calls fail with the reason', async () => {
    const store = await createExecStore({ time, command: `${INIT}; sleep 30 & wait`, replyTimeoutMs: 300 });
    const started = performance.now();
    await expect(store.execute(acquire)).rejects.toThrow(/did not answer Acquire within 300 ms/);
    await expect(store.execute(acquire)).rejects.toThrow(/did not answer Acquire within 300 ms/);
    await store.close();
    // The shell's child (sleep 30) went with it: close did not wait for it.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('a reply written just before exiting is delivered; the next call names the exit', async () => {
    const store = await createExecStore({ time, command: `${INIT}; read line; echo '{"id":2,"type":"outcome","outcome":{"kind":"Busy","holder":"b","token":1,"expiresAt":5}}'; echo bye >&2; exit 4` });
    await expect(store.execute(acquire)).resolves.toEqual({ kind: 'Busy', holder: 'b', token: 1, expiresAt: 5 });
    await expect(store.execute(acquire)).rejects.toThrow(/exited with code 4 \(its last words: bye\)/);
    await store.close();
  });

  test.each([
    ['does not speak the protocol', 'echo hello', /store process `echo hello` wrote a line that is not JSON: hello/],
    ['answers init with something else', `echo '{"id":1,"type":"ready"}'`, /answered init with \{"id":1,"type":"ready"\}, expected type "init_ok"/],
    ['declares a command the port does not have', `echo '{"id":1,"type":"init_ok","capabilities":{"commands":["Lock"]}}'`, /bad capabilities in init_ok: unknown command kinds "Lock"/],
  ])('a process that %s opens no store, saying why', async (_, command, message) => {
    await expect(createExecStore({ time, command })).rejects.toThrow(message);
  });

  test('a stray line with nothing in flight breaks the channel', async () => {
    const store = await createExecStore({ time, command: `${INIT}; echo 'stray'; sleep 30` });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(store.execute(acquire)).rejects.toThrow(/wrote a line that is not JSON: stray/);
    await store.close();
  });
});

describe('exec store sessions and lifecycle', () => {
  const LIFECYCLE_STORE = `node ${shellWord(path.join(import.meta.dirname, 'fixtures/lifecycle-store.cjs'))}`;

  test('the calling process travels with each command, lifecycle events are asked, and leaseBound is read', async () => {
    const store = await createExecStore({ time, command: LIFECYCLE_STORE });
    try {
      expect(store.capabilities).toEqual({ leaseBound: 'session', referenceSemantics: false });
      const outcome = (await store.execute(acquire, { process: 'c1#1', node: 'c1' })) as unknown as { seen: string[] };
      expect(outcome.seen).toEqual(['c1#1@c1']);
      expect(store.lifecycle).toBeTypeOf('function');
      await expect(store.lifecycle!({ kind: 'cut-off', process: 'c1#1', node: 'c1' })).resolves.toEqual({ ended: [{ scope: 's', holder: 'c1#1', token: 1 }] });
      await expect(store.lifecycle!({ kind: 'pause', process: 'c1#1', node: 'c1' })).resolves.toEqual({ ended: [] });
    } finally {
      await store.close();
    }
  });

  test('a store that does not declare lifecycle is not asked, and a bad leaseBound opens no store', async () => {
    const store = await createExecStore({ time, command: INIT });
    expect(store.lifecycle).toBeUndefined();
    await store.close();
    await expect(createExecStore({ time, command: `echo '{"id":1,"type":"init_ok","capabilities":{"leaseBound":"forever"}}'` })).rejects.toThrow(/leaseBound is neither "ttl" nor "session"/);
  });

  test('fencing is read from init_ok, and a kind that is not one opens no store', async () => {
    const store = await createExecStore({ time, command: `echo '{"id":1,"type":"init_ok","capabilities":{"fencing":"opaque"}}'; cat >/dev/null` });
    expect(store.capabilities).toEqual({ fencing: 'opaque' });
    await store.close();
    await expect(createExecStore({ time, command: `echo '{"id":1,"type":"init_ok","capabilities":{"fencing":"uuid"}}'` })).rejects.toThrow(/fencing is not "integer", "opaque" or "none"/);
  });
});
