// A user's store that declares itself deterministic (capabilities.deterministic) has its failures
// shrunk like the built-in stores': `run` prints the numbered counterexample and writes the shrunk
// plan, and `replay` of that file gives the same trace hash. An undeclared store is not shrunk.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-module-shrink-');
const MEMORY = path.resolve(import.meta.dirname, '../../adapters/memory.ts');

/** The memory store with one bug: Mutate never checks the fencing token (judged by the history checkers). */
function unfencedModule(dir: string, deterministic: boolean): string {
  const file = path.join(dir, `unfenced-${deterministic}.mts`);
  writeFileSync(
    file,
    `import createMemoryStore from ${JSON.stringify(MEMORY)};
export default async (options) => {
  const store = await createMemoryStore(options);
  const live = (scope) => store.execute({ kind: 'Inspect' }).then((r) => r.view.leases.find((l) => l.scope === scope));
  return {
    name: 'unfenced',
    capabilities: { referenceSemantics: false, deterministic: ${deterministic} },
    async execute(command) {
      if (command.kind !== 'Mutate') return store.execute(command);
      const lease = await live(command.scope);
      const token = lease === undefined ? command.token : lease.token;
      const holder = lease === undefined ? command.holder : lease.holder;
      const outcome = await store.execute({ ...command, token, holder });
      return outcome.kind === 'Accepted' ? { ...outcome, token: command.token } : outcome;
    },
    close: () => store.close(),
  };
};
`,
  );
  return file;
}

describe('a failure of a user module store', () => {
  test('is shrunk when the store declares itself deterministic, and its file replays with the same trace hash', async () => {
    const dir = scratch();
    const adapter = unfencedModule(dir, true);
    const sweep = await runCliAsync(['sweep', '--scenario', 'stale-holder', '--seeds', '1..20', '--adapter', adapter, '--stop-at-first', '--json'], { cwd: dir, timeoutMs: 300_000 });
    expect(sweep.code, sweep.stderr).toBe(1);
    const { firstFailure } = JSON.parse(sweep.stdout) as { firstFailure: { seed: number; failureFile: string; shrunk: boolean } };
    expect(firstFailure.shrunk).toBe(true);
    const file = path.resolve(dir, firstFailure.failureFile);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { traceHash: string };
    const replay = await runCliAsync(['replay', file, '--trust-file-adapter', '--json'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(1);
    const replayed = JSON.parse(replay.stdout) as { traceHash: string; exact: boolean; valid: boolean };
    expect(replayed).toMatchObject({ exact: true, valid: false, traceHash: written.traceHash });
  }, 300_000);

  test('is not shrunk when the store does not say it is deterministic', async () => {
    const dir = scratch();
    const adapter = unfencedModule(dir, false);
    const sweep = await runCliAsync(['sweep', '--scenario', 'stale-holder', '--seeds', '1..20', '--adapter', adapter, '--stop-at-first', '--json'], { cwd: dir, timeoutMs: 300_000 });
    expect(sweep.code, sweep.stderr).toBe(1);
    expect((JSON.parse(sweep.stdout) as { firstFailure: { shrunk: unknown } }).firstFailure.shrunk).toBe(false);
  }, 300_000);
});
