// Render every report in memory first, then write each one atomically: a render that throws
// writes nothing, and a reader never sees a half-written file.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateRunInput } from '../campaign/gates/evidence.ts';
import { computeGates } from './gate-status.ts';
import { writeFileAtomic } from '../campaign/atomic-write.ts';
import { renderGatesJson } from './render/gates-json.ts';
import { renderGatesMd } from './render/gates-md.ts';
import { renderIndexHtml } from './render/index-html.ts';
import { renderJunitXml } from './render/junit-xml.ts';
import { runVerdict } from './run-verdict.ts';

export interface WrittenReports {
  /** The paths written (`outDir` joined with each file name), in the order written. */
  readonly files: ReadonlyArray<string>;
}

export async function writeReports(input: GateRunInput, outDir: string): Promise<WrittenReports> {
  const gates = computeGates(input);
  const verdict = runVerdict(input, gates);
  const outputs: ReadonlyArray<readonly [string, string]> = [
    ['gates.json', renderGatesJson(gates, verdict)],
    ['gates.md', renderGatesMd(input, gates, verdict)],
    ['junit.xml', renderJunitXml(input, gates, verdict)],
    ['index.html', renderIndexHtml(input, gates, verdict)],
  ];
  await mkdir(outDir, { recursive: true });
  const files: string[] = [];
  for (const [name, content] of outputs) {
    const path = join(outDir, name);
    await writeFileAtomic(path, content);
    files.push(path);
  }
  return { files };
}
