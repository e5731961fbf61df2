// Progress on piped output (cli/progress.ts): a long command run in CI or through a pipe says how
// far it is on stderr, in plain self-contained lines, one per tenth of the work (so the same number
// on every machine) and one more whenever ten seconds of wall time passed without one; stdout stays
// the command's answer, and `--json` keeps stderr quiet as well.

import { describe, expect, test } from 'vitest';
import { pipedProgress, PIPED_EVERY_MS, progressLine } from '../../cli/progress.ts';
import { runCliAsync } from './run-cli.ts';
import { scratchDirs } from '../scratch-dirs.ts';

const scratch = scratchDirs('testbed-progress-');

/** A piped progress on a clock the test moves, and the lines it wrote. */
function piped(total: number) {
  const clock = { ms: 0 };
  const lines: string[] = [];
  const progress = pipedProgress({ total, label: 'check', unit: 'sequences', write: (line) => lines.push(line), now: () => clock.ms });
  return { clock, lines, progress };
}

describe('piped progress lines', () => {
  test('one line per tenth of the work, whatever the speed', () => {
    const { clock, lines, progress } = piped(20_000);
    for (let i = 0; i < 20_000; i++) {
      clock.ms += 1;
      progress.tick();
    }
    expect(lines).toHaveLength(10);
    expect(lines[1]).toBe('check: 4000/20000 sequences (20%), 4.0 s elapsed, eta 16 s\n');
    expect(lines[9]).toBe('check: 20000/20000 sequences (100%), 20 s elapsed\n');
  });

  test('a slow stretch gets a line every ten seconds; a batch that crosses several tenths, one line', () => {
    const { clock, lines, progress } = piped(100);
    clock.ms = PIPED_EVERY_MS - 1;
    progress.tick('last a');
    expect(lines).toEqual([]);
    clock.ms = PIPED_EVERY_MS;
    progress.tick('last b');
    expect(lines).toEqual(['check: 2/100 sequences (2%), last b, 10 s elapsed, eta 490 s\n']);
    progress.tick('', 50);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^check: 52\/100 sequences \(52%\), 10 s elapsed, eta 9\.2 s\n$/);
  });

  test('each line stands alone: label, count, unit, share, detail, elapsed and estimate', () => {
    expect(progressLine('gates mutants', 'mutants', 3, 40, 'last no-fencing-check', 95_000)).toBe('gates mutants: 3/40 mutants (7%), last no-fencing-check, 95 s elapsed, eta 1172 s');
    expect(progressLine('sweep', 'runs', 0, 10, '', 500)).toBe('sweep: 0/10 runs (0%), 0.5 s elapsed, eta unknown');
  });
});

describe('a long command with stderr piped', () => {
  test('check prints progress lines on stderr, its answer alone on stdout; --json keeps both clean', async () => {
    const cwd = scratch();
    const [text, json] = await Promise.all([
      runCliAsync(['check', '--runs', '300', '--seed', '1'], { cwd }),
      runCliAsync(['check', '--runs', '300', '--seed', '1', '--json'], { cwd }),
    ]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stderr.trimEnd().split('\n');
    // Ten lines at the tenths; a machine slow enough to take ten seconds over a tenth adds more.
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(line).toMatch(/^check: \d+\/300 sequences \(\d+%\), [\d.]+ s elapsed(, eta [\d.]+ s)?$/);
    expect(lines.some((line) => line.startsWith('check: 30/300 sequences (10%)'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^check: 300\/300 sequences \(100%\)/);
    expect(text.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^check memory seed 1: agrees with the model on 300 sequences/)]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'pass', runs: 300 });
  }, 120_000);

  test('sweep prints progress lines naming the runs done and failing', async () => {
    const result = await runCliAsync(['sweep', '--scenario', 'stale-holder', '--seeds', '1..20', '--workers', '1', '--adapter', 'mutant:no-fencing-check', '--no-shrink'], { cwd: scratch() });
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stderr.trimEnd().split('\n').filter((line) => line.startsWith('sweep: '));
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(lines.at(-1)).toMatch(/^sweep: 20\/20 runs \(100%\), last stale-holder#20, \d+ failing, [\d.]+ s elapsed$/);
    expect(result.stdout).not.toMatch(/^sweep: /m);
  }, 120_000);
});
