// `--adapter exec:<command>`: a store in any language, over JSON lines. The Python lease store of
// examples/exec-store passes a lease scenario; its unfenced variant is caught, and the replay line
// (quoted for the shell) replays the failure with the same trace hash. A process that breaks the
// protocol is named in one line: exit 3 when no store could be opened or its process died, exit 1
// (a finding) when a call fails.

import { writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runCli, runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-exec-');
const PYTHON = 'exec:python3 examples/exec-store/lease_store.py';

describe('exec: stores', () => {
  test('the Python lease store passes stale-holder seed 1, judged against the model as well', () => {
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', PYTHON, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { valid: boolean; operations: number; unjudged?: Array<{ invariant: string }> };
    expect(run.valid).toBe(true);
    expect(run.operations).toBeGreaterThan(100);
    // Only the invariants that read commands it lacks go unjudged; the differential runs.
    expect(run.unjudged?.map((u) => u.invariant)).toEqual(['release-after-reconcile']);
  });

  test('its unfenced variant is caught, and the quoted replay line replays the failure exactly', async () => {
    const cwd = scratch();
    const unfenced = `${PYTHON.replace('examples', `${process.cwd()}/examples`)} --no-fencing`;
    const sweep = await runCliAsync(['sweep', '--scenario', 'stale-holder', '--seeds', '1..3', '--adapter', unfenced, '--no-shrink', '--json'], { cwd });
    expect(sweep.code, sweep.stderr).toBe(1);
    const { firstFailure } = JSON.parse(sweep.stdout) as { firstFailure: { seed: number; replay: string; failureFile: string } };
    expect(firstFailure.replay).toContain(`--adapter '${unfenced}'`);
    // The failure file's replay line, quoted, is read back as the adapter that ran.
    const replay = await runCliAsync(['replay', firstFailure.failureFile, '--adapter', unfenced, '--json'], { cwd });
    expect(replay.code, replay.stderr).toBe(1);
    expect(JSON.parse(replay.stdout)).toMatchObject({ exact: true, valid: false });
    const run = async () => JSON.parse((await runCliAsync(['run', '--scenario', 'stale-holder', '--seed', String(firstFailure.seed), '--adapter', unfenced, '--json', '--no-shrink'], { cwd })).stdout) as { valid: boolean; traceHash: string };
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.valid).toBe(false);
    expect(a.traceHash).toBe(b.traceHash);
  }, 120_000);

  test('a command that is not there: exit 3, one line with its last words (the other breaches: test/adapters/exec-store.test.ts)', () => {
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', 'exec:no-such-store-command-xyz']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/store process `no-such-store-command-xyz` exited with code 127 \(its last words: .*not found\)/);
  });

  test('a store process that dies after init_ok: exit 3, one line with its last words, no finding', () => {
    const script = `import json,sys
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] == "init":
        print(json.dumps({"id": r["id"], "type": "init_ok"}), flush=True)
    else:
        print("out of memory", file=sys.stderr, flush=True)
        sys.exit(4)`;
    const dir = scratch();
    const file = `${dir}/dies.py`;
    writeFileSync(file, script);
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', `exec:python3 ${file}`]);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    const last = result.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^testbed: could not decide: .*exited with code 4 \(its last words: out of memory\)$/);
    expect(result.stdout).not.toMatch(/port-contract/);
  });

  test('a store whose every call fails is a finding naming the command (exit 1), not a crash', () => {
    const script = `import json,sys
for line in sys.stdin:
    r = json.loads(line)
    out = {"id": r["id"], "type": "init_ok"} if r["type"] == "init" else {"id": r["id"], "type": "error", "message": "disk full"}
    print(json.dumps(out), flush=True)`;
    const dir = scratch();
    const file = `${dir}/failing.py`;
    writeFileSync(file, script);
    const result = runCli(['run', '--scenario', 'stale-holder', '--seed', '1', '--adapter', `exec:python3 ${file}`, '--json']);
    expect(result.code, result.stderr).toBe(1);
    const run = JSON.parse(result.stdout) as { violations: Array<{ invariant: string; message: string }> };
    expect(run.violations[0]?.invariant).toBe('port-contract');
    expect(run.violations[0]?.message).toMatch(/Acquire .*failed on Acquire: disk full/);
  });
});
