// A store cannot hang the testbed or end it without a verdict (docs/ARCHITECTURE.md "The CLI
// contract"): a store that never answers a call (its factory, execute, lifecycle, snapshot,
// restore or close) while it keeps the process alive (a timer, as a pool waiting on a lock does)
// is cut off at the call time limit, a store that calls
// process.exit(0) inside a call, each end with exit 3 and one line naming the call, within 30 s
// (an error thrown from a store's own timer is a finding: store-escapes.test.ts); an answer of the wrong shape is a port-contract
// finding naming the call and the field (exit 1) under run, sweep and stress.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-hazards-');
/** Keeps the event loop alive for good, as a pool or a sweeper does. */
const ALIVE = 'setInterval(() => {}, 1000);\n';
const LIMIT = { TESTBED_CALL_TIMEOUT_MS: '2000' };

function store(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

const FREE = "export default async () => ({ async execute(c) { return c.kind === 'Acquire' ? NEXT : { kind: 'Inspected', leases: [] }; }, async close() {} });\n";

async function run(adapter: string, env: Record<string, string> = LIMIT, scenario = 'stale-holder') {
  const started = Date.now();
  const result = await runCliAsync(['run', '--scenario', scenario, '--seed', '1', '--adapter', adapter, '--no-shrink'], { env, timeoutMs: 60_000 });
  // What run prints before it starts (its replay line and settings) aside, the lines it ends with.
  const lines = result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('npx testbed run') && !line.startsWith('seed 1:'));
  return { ...result, ms: Date.now() - started, lines };
}

describe('a store cannot hang the testbed or end it silently', () => {
  test.each([
    ['execute never answers', `${ALIVE}export default async () => ({ execute: () => new Promise(() => {}), async close() {} });\n`, /store .* on \w+ did not finish within 2 s/],
    ['the factory never answers', `${ALIVE}export default () => new Promise(() => {});\n`, /the store factory of .* did not finish within 2 s/],
    ['close never answers', `${ALIVE}${FREE.replace('NEXT', "{ kind: 'Busy', scope: c.scope }").replace('async close() {}', 'close: () => new Promise(() => {})')}`, /close\(\) of store .* did not finish within 2 s/],
    ['lifecycle never answers', `${ALIVE}${FREE.replace('NEXT', "{ kind: 'Busy', scope: c.scope }").replace('async close() {}', 'lifecycle: () => new Promise(() => {}), async close() {}')}`, /lifecycle\(\) of store .* did not finish within 2 s/],
    ['snapshot never answers', `${ALIVE}${FREE.replace('NEXT', "{ kind: 'Busy', scope: c.scope }").replace('async close() {}', 'snapshot: () => new Promise(() => {}), async restore() {}, async close() {}')}`, /snapshot\(\) of store .* did not finish within 2 s/, 'restore'],
    ['restore never answers', `${ALIVE}${FREE.replace('NEXT', "{ kind: 'Busy', scope: c.scope }").replace('async close() {}', "async snapshot() { return { kind: 'image' }; }, restore: () => new Promise(() => {}), async close() {}")}`, /restore\(\) of store .* did not finish within 2 s/, 'restore'],
    ['execute calls process.exit(0)', "export default async () => ({ async execute() { process.exit(0); }, async close() {} });\n", /the process was ended \(process\.exit\(0\)\) during store .* on \w+, with no verdict/],
  ])('%s: exit 3, one line naming the call, within 30 s', async (_, body, message, scenario = 'stale-holder') => {
    const result = await run(store(scratch(), 'store.mjs', body), LIMIT, scenario);
    expect(result.code, result.stderr).toBe(3);
    expect(result.lines).toEqual([expect.stringMatching(message)]);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.ms).toBeLessThan(30_000);
  }, 60_000);

  // A lease without its fields used to end run and sweep with "TypeError: Cannot read properties
  // of undefined", and stress undecided.
  test.each([
    ['run', ['run', '--scenario', 'stale-holder', '--seed', '1', '--no-shrink']],
    ['sweep', ['sweep', '--scenario', 'stale-holder', '--seeds', '1..2', '--no-shrink']],
    ['stress', ['stress', '--duration', '1s', '--clients', '2']],
  ])('an answer of the wrong shape is a port-contract finding naming the call and the field under %s (exit 1)', async (_, args) => {
    const file = store(scratch(), 'store.mjs', FREE.replace('NEXT', "{ kind: 'Acquired' }"));
    const result = await runCliAsync([...args, '--adapter', file], { env: LIMIT, timeoutMs: 60_000 });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/port-contract: Acquire by .*the store answered \{"kind":"Acquired"\}, which is not the port's shape of Acquired: lease: /);
    expect(result.stdout + result.stderr).not.toMatch(/TypeError/);
  }, 60_000);

  test('a token that is not a number is a port-contract finding (exit 1)', async () => {
    const file = store(scratch(), 'store.mjs', FREE.replace('NEXT', "{ kind: 'Acquired', lease: { scope: c.scope, holder: c.holder, token: '1', acquiredAt: 0, expiresAt: 'later' } }"));
    const result = await run(file);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/port-contract: Acquire/);
  }, 60_000);

  test('TESTBED_CALL_TIMEOUT_MS that is not a number of milliseconds is bad input (exit 2)', async () => {
    const file = store(scratch(), 'store.mjs', FREE.replace('NEXT', "{ kind: 'Busy', scope: c.scope }"));
    const result = await run(file, { TESTBED_CALL_TIMEOUT_MS: 'soon' });
    expect(result.code).toBe(2);
    expect(result.lines).toEqual([expect.stringMatching(/TESTBED_CALL_TIMEOUT_MS must be a whole number of milliseconds/)]);
  }, 60_000);
});
