// `testbed check` as a user runs it: a store mutant is caught with a numbered counterexample, a
// failure file and a replay line that reproduces it; a store module that differs from the model
// in one command is caught; a correct store passes.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { scratchDirs } from '../scratch-dirs.ts';
import { writeMemoryModule } from './memory-module.ts';
import { runCli } from './run-cli.ts';

const scratch = scratchDirs('testbed-check-');

interface CheckJson {
  readonly verdict: string;
  readonly replay: string;
  readonly failureFile: string | null;
  readonly steps?: ReadonlyArray<{ readonly command?: { readonly kind: string }; readonly actual?: unknown; readonly expected?: unknown }>;
}

describe('testbed check', () => {
  test('catches a store mutant, writes a failure file and prints a replay line that reproduces it', () => {
    const cwd = scratch();
    const first = runCli(['check', '--adapter', 'mutant:semaphore-off-by-one', '--seed', '11', '--json'], { cwd });
    expect(first.code, first.stderr).toBe(1);
    const found = JSON.parse(first.stdout) as CheckJson;
    expect(found.verdict).toBe('fail');
    expect(found.steps!.length).toBeLessThanOrEqual(6);
    expect(existsSync(path.join(cwd, found.failureFile!))).toBe(true);
    expect(found.replay).toMatch(/^npx testbed check --adapter mutant:semaphore-off-by-one --seed 11 --path v3:[\d:]+$/);

    const again = runCli([...found.replay.split(' ').slice(2), '--json'], { cwd });
    expect(again.code).toBe(1);
    expect((JSON.parse(again.stdout) as CheckJson).steps).toEqual(found.steps);
  });

  test('prints the counterexample as numbered steps with both outcomes', () => {
    const result = runCli(['check', '--adapter', 'mutant:no-fencing-check', '--seed', '3'], { cwd: scratch() });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/DIVERGES from the model at step \d+/);
    expect(result.stdout).toMatch(/^ {2}1\. t=\d+ /m);
    expect(result.stdout).toMatch(/^ {5}store: /m);
    expect(result.stdout).toMatch(/^ {5}model: /m);
    expect(result.stdout).toMatch(/^replay: npx testbed check --adapter mutant:no-fencing-check --seed 3 --path /m);
  });

  test('catches a store module that answers one command differently from the model', () => {
    const cwd = scratch();
    // Handoff hands the lease over under the same token instead of a new one.
    const module = writeMemoryModule(cwd, {
      file: 'handoff-keeps-token.mjs',
      store: `{
    name: 'handoff-keeps-token',
    async execute(command) {
      const outcome = await base.execute(command);
      if (command.kind === 'Handoff' && outcome.kind === 'HandedOff') return { ...outcome, lease: { ...outcome.lease, token: command.token } };
      return outcome;
    },
    close: () => base.close(),
  }`,
    });
    const result = runCli(['check', '--adapter', module, '--seed', '2', '--json'], { cwd });
    expect(result.code, result.stderr).toBe(1);
    const found = JSON.parse(result.stdout) as CheckJson;
    expect(found.steps!.length).toBeLessThanOrEqual(6);
    expect(found.steps!.at(-1)!.command!.kind).toBe('Handoff');
    expect(JSON.parse(readFileSync(path.join(cwd, found.failureFile!), 'utf8'))).toMatchObject({ kind: 'check', seed: 2, profile: 'default', maxSteps: 50 });
  });

  test('a correct store agrees with the model', () => {
    const result = runCli(['check', '--adapter', 'memory', '--runs', '500', '--seed', '1'], { cwd: scratch() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('agrees with the model on 500 sequences');
  });
});
