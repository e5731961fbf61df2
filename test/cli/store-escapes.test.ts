// An error that escapes a store's library (docs/ARCHITECTURE.md "Errors that escape a store") is a
// finding, never a crash: an exception thrown from the store's own timer, a promise it leaves
// rejected with no handler, and a timer of the clock kit that throws each make `run` exit 1 with a
// port-contract finding naming the call in flight (command kind and process) and a replay line, no
// stack trace; `check` reports it as a divergence (exit 1).

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-escapes-');
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A store module over the memory store, with `arm` run inside each call, the `n`-th only. */
function storeModule(arm: string, n = 3, kit = false): string {
  const file = path.join(scratch(), 'store.ts');
  const lines = [
    `import createMemoryStore from '${ROOT}/adapters/memory.ts';`,
    `import { clockKit } from '${ROOT}/adapters/clock-kit.ts';`,
    'export default async (options) => {',
    '  const memory = await createMemoryStore(options);',
    `  const kit = ${kit ? 'clockKit(options.time)' : 'null'};`,
    '  let calls = 0;',
    '  const store = { name: memory.name, capabilities: memory.capabilities, async execute(c, call) { if (++calls === ' + n + ') { ' + arm + ' } return memory.execute(c, call); }, close: () => memory.close() };',
    '  return kit === null ? store : kit.drive(store);',
    '};',
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function run(adapter: string) {
  return runCliAsync(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', adapter, '--no-shrink'], { env: { TESTBED_CALL_TIMEOUT_MS: '5000' }, timeoutMs: 60_000 });
}

describe('an error escaping the store is a finding naming the call in flight', () => {
  test.each([
    ['an exception thrown from the store\'s own timer, while the call waits on it', "await new Promise((done) => setTimeout(() => { done(); throw new Error('boom in a timer'); }, 1));", false, /port-contract: \w+ by c\d#\d at store time \d+: the store threw StoreEscapeError: an error escaped the store during \w+ from c\d#\d \(from an exception no call awaited, thrown from a timer or callback\): boom in a timer/],
    ['a promise the store leaves rejected with no handler', "Promise.reject(new Error('left unhandled'));", false, /port-contract: \w+ by c\d#\d at store time \d+: the store threw StoreEscapeError: an error escaped the store during \w+ from c\d#\d \(from a promise rejected with no handler\): left unhandled/],
    ['a timer of the clock kit that throws', "kit.clock.setTimeout(() => { throw new Error('kit timer broke'); }, 10);", true, /port-contract: \w+ by c\d#\d at store time \d+: the store threw StoreEscapeError: an error escaped the store during \w+ from c\d#\d \(from a timeout of 10 ms set at virtual time \d+, at virtual time \d+\): kit timer broke/],
  ])('%s: run exits 1 with the finding and a replay line', async (_, arm, kit, finding) => {
    const adapter = storeModule(arm, 3, kit);
    const result = await run(adapter);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(finding);
    expect(result.stdout).toMatch(/^replay: npx testbed run --scenario stale-holder --seed 1 --adapter \S+store\.ts$/m);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toMatch(/could not decide/);
  }, 60_000);

  test('check reports an escape as a divergence (exit 1) with its replay line', async () => {
    const adapter = storeModule("Promise.reject(new Error('left unhandled'));", 2);
    const result = await runCliAsync(['check', '--runs', '50', '--seed', '1', '--adapter', adapter], { timeoutMs: 60_000 });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/StoreEscapeError: an error escaped the store during \w+ \(from a promise rejected with no handler\): left unhandled/);
    expect(result.stdout).toMatch(/replay: npx testbed check --adapter \S+ --seed 1 --path v3:/);
    expect(result.stdout + result.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
