// `testbed check` on stores whose fences are not integers (capabilities.fencing; campaign/fences/):
// a correct store with opaque fences (UUID-like strings) and one without fences agree with the
// model (exit 0) and say what was not judged; an opaque store that accepts a write under a stale
// fence (000 §25–§30) or gives a new lease an earlier lease's fence (000 §24) diverges (exit 1),
// naming the rule, and its replay line gives the same counterexample.

import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { scratchDirs } from '../scratch-dirs.ts';
import { runCli } from './run-cli.ts';

const scratch = scratchDirs('testbed-check-fences-');
const FIXTURES = path.resolve(import.meta.dirname, '../fences/fixtures');

interface CheckJson {
  readonly verdict: string;
  readonly fencing: string;
  readonly notJudged: ReadonlyArray<string>;
  readonly rule?: string;
  readonly why?: string;
  readonly replay: string;
  readonly steps?: ReadonlyArray<{ readonly command?: { readonly kind: string }; readonly actual?: { readonly kind?: string }; readonly expected?: { readonly kind?: string } }>;
}

function check(fixture: string, args: ReadonlyArray<string>, cwd = scratch()) {
  const result = runCli(['check', '--adapter', path.join(FIXTURES, fixture), ...args, '--json'], { cwd });
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return { code: result.code, json: JSON.parse(result.stdout) as CheckJson };
}

describe('testbed check on fences that are not integers', () => {
  test('a correct store with opaque fences agrees with the model, its fences compared by equality and their order not judged', () => {
    const { code, json } = check('opaque-memory.ts', ['--runs', '1000', '--seed', '2']);
    expect(code).toBe(0);
    expect({ verdict: json.verdict, fencing: json.fencing }).toEqual({ verdict: 'pass', fencing: 'opaque' });
    expect(json.notJudged).toContain("the order of the store's fences (compared by equality only)");
    expect(json.notJudged).toContain('a ForceReleased nextToken (a promise about integer fences)');
  });

  test('a correct store without fences agrees with the model; its fence values and the fences its commands carried are not judged', () => {
    const { code, json } = check('fenceless-memory.ts', ['--runs', '500', '--seed', '1']);
    expect(code).toBe(0);
    expect({ verdict: json.verdict, fencing: json.fencing }).toEqual({ verdict: 'pass', fencing: 'none' });
    expect(json.notJudged).toContain('fence values (the store has none)');
    expect(json.notJudged.some((what) => /^the fence Mutate carried/.test(what))).toBe(true);
  });

  test('an opaque store that accepts a write under a stale fence diverges, naming the rule, and replays', () => {
    const cwd = scratch();
    const { code, json } = check('opaque-stale-write.ts', ['--seed', '1'], cwd);
    expect(code).toBe(1);
    expect(json.rule).toBe('stale-fence');
    const last = json.steps!.at(-1)!;
    // The store judges the write without its fence: the model refuses it as StaleFence, the store
    // answers what it would have answered to a fresh fence (Accepted, or StaleVersion when the
    // drawn version is also off).
    expect([last.command?.kind, last.expected?.kind]).toEqual(['Mutate', 'StaleFence']);
    expect(['Accepted', 'StaleVersion']).toContain(last.actual?.kind);
    const again = runCli([...json.replay.split(' ').slice(2), '--json'], { cwd });
    expect(again.code).toBe(1);
    expect((JSON.parse(again.stdout) as CheckJson).steps).toEqual(json.steps);
  });

  test('an opaque store that gives a new lease an earlier lease\'s fence diverges as fencing-monotonic', () => {
    const result = runCli(['check', '--adapter', path.join(FIXTURES, 'opaque-reused-fence.ts'), '--seed', '1'], { cwd: scratch() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^fencing-monotonic: a fence reused: scope \S+: the store gave "[0-9a-f-]{36}", its fence of token 1, where the model issues a new token 2$/m);
    expect(result.stdout).toContain("not judged (capabilities.fencing 'opaque')");
  });
});
