// What a mutation run of the protocol code showed (`npm run mutation`): how many mutants the
// gate's test killed, and every survivor not declared equivalent, with where it is.
// A mutant is killed by a verdict of the mutation test (test/mutation/): a violation, an
// undecided run, a catalogue mutant that escaped its hunt, or a crash; a timeout counts as killed (the mutant loops), as
// StrykerJS counts it. A mutant no test reaches ("no coverage") counts as a survivor. Compile and
// runtime errors of the instrumented code are not mutants of the protocol and are left out.

import { z } from 'zod';
import { equivalenceKey, type EquivalentMutant } from './equivalent.ts';

/** The fields of a StrykerJS mutant result this summary reads. */
export interface MutantOutcome {
  readonly fileName: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}

export interface Survivor {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly replacement: string;
  readonly status: 'Survived' | 'NoCoverage';
}

export interface MutationSummary {
  /** protocolDigest of every protocol file when the run began (protocol-files.ts). */
  readonly digest: string;
  readonly files: ReadonlyArray<string>;
  /** Seeds per must-pass scenario the mutation test ran. */
  readonly seeds: number;
  readonly killed: number;
  readonly timedOut: number;
  readonly survived: number;
  readonly noCoverage: number;
  /** Survivors declared equivalent (campaign/mutation/equivalent.ts): not counted either way. */
  readonly equivalent: number;
  /** Killed (timeouts included) of the mutants not declared equivalent, 0..1; null when there were none. */
  readonly score: number | null;
  readonly survivors: ReadonlyArray<Survivor>;
}

/** The share of the mutants not declared equivalent that a run must kill. */
export const SCORE_THRESHOLD = 0.85;

export function summarize(outcomes: ReadonlyArray<MutantOutcome>, digest: string, files: ReadonlyArray<string>, seeds: number, equivalents: ReadonlyArray<EquivalentMutant>, root: string): MutationSummary {
  const declared = new Set(equivalents.map(equivalenceKey));
  let killed = 0;
  let timedOut = 0;
  let equivalent = 0;
  const survivors: Survivor[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'Killed') killed += 1;
    else if (outcome.status === 'Timeout') timedOut += 1;
    else if (outcome.status === 'Survived' || outcome.status === 'NoCoverage') {
      const survivor: Survivor = {
        file: relative(outcome.fileName, root),
        line: outcome.location.start.line,
        column: outcome.location.start.column,
        mutator: outcome.mutatorName,
        replacement: outcome.replacement ?? '',
        status: outcome.status,
      };
      if (declared.has(equivalenceKey(survivor))) equivalent += 1;
      else survivors.push(survivor);
    }
  }
  survivors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return {
    digest,
    files: [...files].sort(),
    seeds,
    killed,
    timedOut,
    survived: survivors.filter((s) => s.status === 'Survived').length,
    noCoverage: survivors.filter((s) => s.status === 'NoCoverage').length,
    equivalent,
    score: shareOrNull(scoreOf(killed + timedOut, survivors.length)),
    survivors,
  };
}

/** Shard summaries together: the files, counts and survivors of all of them. */
export function mergeSummaries(parts: ReadonlyArray<MutationSummary>): MutationSummary {
  const sum = (field: 'killed' | 'timedOut' | 'survived' | 'noCoverage' | 'equivalent'): number => parts.reduce((total, part) => total + part[field], 0);
  const survivors = parts.flatMap((part) => part.survivors).sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  const seeds = new Set(parts.map((part) => part.seeds));
  if (seeds.size > 1) throw new Error(`the shards ran different seed counts (${[...seeds].join(', ')}); run them again with one --seeds`);
  const digests = new Set(parts.map((part) => part.digest));
  if (digests.size > 1) throw new Error('the shards mutated different versions of the protocol code; run them again on one version');
  return {
    digest: parts[0]?.digest ?? '',
    files: parts.flatMap((part) => part.files).sort(),
    seeds: parts[0]?.seeds ?? 0,
    killed: sum('killed'),
    timedOut: sum('timedOut'),
    survived: sum('survived'),
    noCoverage: sum('noCoverage'),
    equivalent: sum('equivalent'),
    score: shareOrNull(scoreOf(sum('killed') + sum('timedOut'), survivors.length)),
    survivors,
  };
}

/**
 * The summary with the survivors `equivalents` declares counted as equivalent, as a run would have
 * counted them: a declaration made after the run applies to it while its code is the checkout's
 * (the digest says so), since a declaration names the mutant by file, line, mutator and replacement.
 */
export function withEquivalents(summary: MutationSummary, equivalents: ReadonlyArray<EquivalentMutant>): MutationSummary {
  const declared = new Set(equivalents.map(equivalenceKey));
  const survivors = summary.survivors.filter((s) => !declared.has(equivalenceKey(s)));
  const moved = summary.survivors.length - survivors.length;
  if (moved === 0) return summary;
  const detected = summary.killed + summary.timedOut;
  return {
    ...summary,
    survived: survivors.filter((s) => s.status === 'Survived').length,
    noCoverage: survivors.filter((s) => s.status === 'NoCoverage').length,
    equivalent: summary.equivalent + moved,
    score: shareOrNull(scoreOf(detected, survivors.length)),
    survivors,
  };
}

/** Killed of all counted; a run with nothing to count has no share (a vacuous run proves nothing). */
function scoreOf(detected: number, undetected: number): number {
  return detected + undetected === 0 ? Number.NaN : detected / (detected + undetected);
}

function shareOrNull(share: number): number | null {
  return Number.isNaN(share) ? null : share;
}

function relative(fileName: string, root: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return (fileName.startsWith(prefix) ? fileName.slice(prefix.length) : fileName).replaceAll('\\', '/');
}

/**
 * A summary as gate evidence: a suite named `protocol-mutation` whose passed count is the killed
 * mutants and whose failed count is the survivors when the killed share is below the threshold
 * (none otherwise). Null, with the reason, when the summary is of other code than `digest`.
 */
export function mutationSuite(summary: MutationSummary, digest: string): { readonly name: string; readonly passed: number; readonly failed: number } | { readonly stale: string } {
  if (summary.digest !== digest) return { stale: `made of other protocol code, checkers or scenarios (digest ${summary.digest}, now ${digest}): run npm run mutation again` };
  if (summary.score === null) return { stale: 'holds no mutant: it shows nothing' };
  const detected = summary.killed + summary.timedOut;
  return { name: 'protocol-mutation', passed: detected, failed: summary.score >= SCORE_THRESHOLD ? 0 : summary.survivors.length };
}

const SUMMARY_SCHEMA = z.object({
  digest: z.string(),
  files: z.array(z.string()),
  seeds: z.number().int().positive(),
  killed: z.number().int().nonnegative(),
  timedOut: z.number().int().nonnegative(),
  survived: z.number().int().nonnegative(),
  noCoverage: z.number().int().nonnegative(),
  equivalent: z.number().int().nonnegative(),
  score: z.number().min(0).max(1).nullable(),
  survivors: z.array(z.object({ file: z.string(), line: z.number(), column: z.number(), mutator: z.string(), replacement: z.string(), status: z.enum(['Survived', 'NoCoverage']) })),
});

/** A summary file's text as a summary, or why it is not one (one line). */
export function parseSummary(text: string): MutationSummary | { readonly invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { invalid: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = SUMMARY_SCHEMA.safeParse(value);
  if (!parsed.success) return { invalid: `not a mutation summary (${parsed.error.issues[0]?.path.join('.') || 'the whole'}: ${parsed.error.issues[0]?.message})` };
  return parsed.data;
}
