// Progress of a long run, on stderr only, so that stdout (and `--json`'s document) stays clean;
// a command passes `enabled: false` under `--json`, which keeps stderr quiet too. On a terminal it
// is a bar, redrawn in place. Piped (CI logs, `| tee`), it is plain lines, each whole in itself
// (`check: 4000/20000 sequences (20%), 8 s elapsed, eta 32 s`): one each time another tenth of the
// work is done, so a run writes the same number of lines on every machine, and one more whenever
// PIPED_EVERY_MS of wall time passed since the last, so that a slow stage still says it is alive.
// Wall time decides only when a line is written and what it estimates, never a verdict.

import cliProgress from 'cli-progress';

export interface Progress {
  /** `count` more done (default 1); results that arrive in batches tick once per batch, so the ETA sees real intervals. */
  tick(detail?: string, count?: number): void;
  stop(): void;
}

/** Piped, a line at least this often while ticks come (wall-clock ms). */
export const PIPED_EVERY_MS = 10_000;
/** Piped, a line each time another 1/PIPED_STEPS of the work is done. */
export const PIPED_STEPS = 10;

const SILENT: Progress = { tick() {}, stop() {} };

/**
 * Progress over `total` items (`unit` names them in piped lines: `runs`, `sequences`, `cases`).
 * `label` starts each line and the bar. Nothing at all when `enabled` is false or `total` < 2.
 */
export function startProgress(total: number, label: string, enabled: boolean, unit = 'done'): Progress {
  if (!enabled || total < 2) return SILENT;
  if (!process.stderr.isTTY) return pipedProgress({ total, label, unit, write: (line) => process.stderr.write(line), now: () => performance.now() });
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} {detail} eta {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { detail: '' });
  return {
    tick(detail = '', count = 1) {
      bar.increment(count, { detail });
    },
    stop() {
      bar.stop();
    },
  };
}

export interface PipedProgressOptions {
  readonly total: number;
  readonly label: string;
  readonly unit: string;
  /** Writes one line (ending in a newline). */
  readonly write: (line: string) => void;
  /** Wall-clock milliseconds, for the time-based lines and the estimate. */
  readonly now: () => number;
}

/** Plain progress lines for output that is not a terminal (see the top of this file). */
export function pipedProgress({ total, label, unit, write, now }: PipedProgressOptions): Progress {
  const started = now();
  let done = 0;
  let lastAt = started;
  let lastStep = 0;
  return {
    tick(detail = '', count = 1) {
      done = Math.min(total, done + count);
      const at = now();
      const step = Math.floor((done * PIPED_STEPS) / total);
      if (step === lastStep && at - lastAt < PIPED_EVERY_MS) return;
      lastStep = step;
      lastAt = at;
      write(`${progressLine(label, unit, done, total, detail, at - started)}\n`);
    },
    stop() {},
  };
}

/** One self-contained progress line. */
export function progressLine(label: string, unit: string, done: number, total: number, detail: string, elapsedMs: number): string {
  const percent = Math.floor((done * 100) / total);
  const remaining = done === 0 ? null : (elapsedMs * (total - done)) / done;
  const eta = done === total ? '' : remaining === null ? ', eta unknown' : `, eta ${seconds(remaining)}`;
  return `${label}: ${done}/${total} ${unit} (${percent}%)${detail === '' ? '' : `, ${detail}`}, ${seconds(elapsedMs)} elapsed${eta}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
