// A progress bar for long runs, drawn on stderr and only when stderr is a terminal, so that
// `--json` output and CI logs stay clean.

import cliProgress from 'cli-progress';

export interface Progress {
  tick(detail?: string): void;
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
    tick(detail = '') {
      bar.increment(1, { detail });
    },
    stop() {
      bar.stop();
    },
  };
}
