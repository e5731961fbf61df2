// Every production-readiness gate (seed 000 §316, seed 001 §339), every acceptance test
// (seed 000 §315, seed 001 §338) and every architectural invariant (seed 000 §317, seed 001
// §340), with the scenarios, mutants, test suites and invariants that prove it.
// This is data: to change what proves a gate, edit its line. A proof names a scenario as
// published by `testbed scenarios` (`name`, or `name@adapter` to count only that adapter), a
// mutant as published by `testbed mutants`, or a suite by the name the test run reports.
// A row with no proofs is reported `untested` with the reason in its note. The rows themselves
// live in gate-lines-*.ts.

import { SEED_000_ACCEPTANCE, SEED_000_GATES } from './gate-lines-000.ts';
import { SEED_001_ACCEPTANCE, SEED_001_GATES } from './gate-lines-001.ts';
import { SEED_000_INVARIANTS, SEED_001_INVARIANTS } from './gate-lines-invariants.ts';
export interface GateProofs {
  readonly scenarios: ReadonlyArray<string>;
  readonly mutants: ReadonlyArray<string>;
  readonly suites: ReadonlyArray<string>;
  /**
   * The invariants that judge the row's rule. A mutant proves the row only when it was caught on
   * one of the row's scenarios by one of these (empty: by any history checker).
   */
  readonly invariants: ReadonlyArray<string>;
}

export interface GateDefinition {
  /** Stable kebab id: `<seed>-<section>-<slug>`. */
  readonly id: string;
  readonly title: string;
  /** The seed section, for example `000 §316`. */
  readonly source: string;
  readonly proofs: GateProofs;
  /** What the proofs leave out, shown next to the status. */
  readonly note?: string;
}

export interface Entry extends Partial<GateProofs> {
  readonly note?: string;
}

export type Line = readonly [slug: string, title: string, entry: Entry];


function definitions(source: string, lines: ReadonlyArray<Line>): GateDefinition[] {
  const prefix = source.replace(' §', '-');
  return lines.map(([slug, title, entry]) => ({
    id: `${prefix}-${slug}`,
    title,
    source,
    proofs: { scenarios: entry.scenarios ?? [], mutants: entry.mutants ?? [], suites: entry.suites ?? [], invariants: entry.invariants ?? [] },
    ...(entry.note === undefined ? {} : { note: entry.note }),
  }));
}

/** Gates first (the release decision), then the acceptance tests behind them. */
export const GATE_CATALOGUE: ReadonlyArray<GateDefinition> = Object.freeze([
  ...definitions('000 §316', SEED_000_GATES),
  ...definitions('001 §339', SEED_001_GATES),
  ...definitions('000 §315', SEED_000_ACCEPTANCE),
  ...definitions('001 §338', SEED_001_ACCEPTANCE),
  ...definitions('000 §317', SEED_000_INVARIANTS),
  ...definitions('001 §340', SEED_001_INVARIANTS),
]);
