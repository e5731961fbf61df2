// A progress bar for long runs, drawn on stderr and only when stderr is a terminal, so that
// `--json` output and CI logs stay clean.

import cliProgress from 'cli-progress';

export interface Progress {
  /** `count` more done (default 1); results that arrive in batches tick once per batch, so the ETA sees real intervals. */
  tick(detail?: string, count?: number): void;
  stop(): void;
}

export function startProgress(total: number, label: string, enabled: boolean): Progress {
  if (!enabled || !process.stderr.isTTY || total < 2) return { tick() {}, stop() {} };
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
