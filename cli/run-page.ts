// `run --report [file]`: the run's page (reports/render/run-html.ts), written whole or not at all
// (a temporary file renamed into place, campaign/atomic-write.ts). A path that cannot be written is
// bad input found before the run, as `--out` is: one line, exit 2, nothing run. Should the write still fail after the run
// (a full disk), that is one line on stderr: a violation found stands (exit 1, as with a failure
// file that cannot be written), and a run that found none ends undecided (exit 3).

import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../campaign/atomic-write.ts';
import { renderRunHtml } from '../reports/render/run-html.ts';
import { runReport, type RunReportInput, type ShownFailure } from '../reports/run-report.ts';
import type { SimRunResult } from '../sim/run.ts';
import { firstLine, UsageError } from './errors.ts';
import { checkOutDir } from './out-dir.ts';
import type { RecordedFailure } from './record-failure.ts';
import { replayCommandLine } from './replay-trust.ts';

export interface WrittenPage {
  readonly file: string;
  /** Why the page could not be written, in one line; null when it was. */
  readonly error: string | null;
}

/** Where the page goes: the file named, else `out/runs/<scenario>-seed-<seed>-<adapter>.html`. */
export function pagePath(option: string | true, scenario: string, seed: number, adapter: string): string {
  if (typeof option === 'string') return option;
  const safe = (name: string): string => name.replace(/[^a-z0-9-]+/gi, '_');
  return path.join('out', 'runs', `${safe(scenario)}-seed-${seed}-${safe(adapter)}.html`);
}

/**
 * Throws a UsageError (one line, exit 2) unless the page can be written to `file`, asked before the
 * run (out-dir.ts: the directory can be made and written, and is on a disk, not a kernel
 * filesystem where a write hangs). The check leaves nothing behind.
 */
export async function checkPagePath(file: string): Promise<void> {
  if (file.trim() === '' || /[\\/]$/.test(file)) throw new UsageError(`--report ${JSON.stringify(file)}: name the page's file (say out/run.html)`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`cannot write the report ${file}: it is a directory`);
  try {
    await checkOutDir(path.dirname(file), '--report');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`cannot write the report ${file}: ${error.message}`);
  }
}

/** Renders the page in memory, then writes it atomically (its directory made when missing). */
export async function writeRunPage(file: string, input: RunReportInput): Promise<WrittenPage> {
  const html = renderRunHtml(runReport(input));
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFileAtomic(file, html);
  } catch (error) {
    return { file, error: `cannot write the report ${file}: ${firstLine(error)}` };
  }
  return { file, error: null };
}

/** The page's input for a failing run: the shrunk run when there is one, else why not, and the failure file's replay line. */
export function failurePageInput(result: SimRunResult, recorded: RecordedFailure, adapter: string): RunReportInput {
  const failure: ShownFailure =
    recorded.shrunkRun === null
      ? { kind: 'as-ran', why: recorded.whyNotShrunk ?? 'it was not shrunk' }
      : { kind: 'shrunk', run: recorded.shrunkRun, originalSteps: result.plan.steps.length };
  return { run: result, failure, replays: recorded.writeError === null ? [replayCommandLine(recorded.file, adapter)] : [] };
}

/** The `--json` fields naming the page: `reportFile`, and `reportFileError` when it could not be written. */
export function pageJson(page: WrittenPage | null): { readonly reportFile?: string | null; readonly reportFileError?: string } {
  if (page === null) return {};
  return page.error === null ? { reportFile: page.file } : { reportFile: null, reportFileError: page.error };
}
