// The gate run reads the protocol mutation run's summary (`npm run mutation`, which writes
// `<out>/mutation/summary.json`) as the suite `protocol-mutation`: it fails the run's verdict when
// fewer mutants were killed than the threshold. A summary of other protocol code than the
// checkout's is stale and not counted; no summary, no suite.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_PROTOCOL_FILES, protocolDigest } from '../mutation/protocol-files.ts';
import { EQUIVALENT_MUTANTS } from '../mutation/equivalent.ts';
import { mutationSuite, parseSummary, withEquivalents, type MutationSummary } from '../mutation/summary.ts';
import type { SuiteEvidence } from './evidence.ts';
import { describeError } from '../../adapters/errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The suite, or null with the line that says why there is none. */
export function mutationEvidence(out: string): { readonly suite: SuiteEvidence | null; readonly line: string } {
  const file = path.join(out, 'mutation', 'summary.json');
  if (!existsSync(file)) return { suite: null, line: `protocol mutation: no ${path.relative(process.cwd(), file)} (npm run mutation writes it)` };
  // An installed package ships no protocol sources to compare the summary with.
  if (!ALL_PROTOCOL_FILES.every((f) => existsSync(path.join(ROOT, f)))) return { suite: null, line: 'protocol mutation: the protocol sources are not here to compare the summary with' };
  let summary: MutationSummary;
  try {
    const parsed = parseSummary(readFileSync(file, 'utf8'));
    if ('invalid' in parsed) return { suite: null, line: `protocol mutation: ${path.relative(process.cwd(), file)} is ${parsed.invalid}; not counted` };
    // Survivors declared equivalent since the run count as the declarations say.
    summary = withEquivalents(parsed, EQUIVALENT_MUTANTS);
  } catch (error) {
    return { suite: null, line: `protocol mutation: ${path.relative(process.cwd(), file)} unreadable (${describeError(error)}), not counted` };
  }
  const found = mutationSuite(summary, protocolDigest(ROOT));
  if ('stale' in found) return { suite: null, line: `protocol mutation: ${path.relative(process.cwd(), file)} ${found.stale}; not counted` };
  return { suite: found, line: `protocol mutation: ${found.passed} killed, ${summary.survivors.length} survivors not declared equivalent (${((summary.score ?? 0) * 100).toFixed(1)}%)` };
}
