// Every production-readiness gate (seed 000 §316, seed 001 §339), every acceptance test
// (seed 000 §315, seed 001 §338) and every architectural invariant (seed 000 §317, seed 001
// §340), with the scenarios, mutants, test suites and invariants that prove it.
// This is data: to change what proves a gate, edit its line. A proof names a scenario as
// published by `testbed scenarios` (`name`, or `name@adapter` to count only that adapter), or a
// suite by the name the test run reports. A mutant credits a row from its own entry (`rows`,
// mutants/entry.ts): the row's mutants are those whose entry names it, in catalogue order.
// A row with no proofs is reported `untested` with the reason in its note. The rows themselves
// live in gate-lines-*.ts.

import { SEED_000_ACCEPTANCE, SEED_000_GATES } from './gate-lines-000.ts';
import { SEED_001_ACCEPTANCE, SEED_001_GATES } from './gate-lines-001.ts';
import { SEED_000_INVARIANTS, SEED_001_INVARIANTS } from './gate-lines-invariants.ts';
import type { GateDefinition, Line } from './gate-definition.ts';
import { MUTANTS } from '../mutants/index.ts';

/** The mutants whose entry credits the row `id`. */
function mutantsCrediting(id: string): ReadonlyArray<string> {
  return MUTANTS.filter((mutant) => (mutant.rows as ReadonlyArray<string>).includes(id)).map((mutant) => mutant.name);
}

function definitions(source: string, lines: ReadonlyArray<Line>): GateDefinition[] {
  const prefix = source.replace(' §', '-');
  return lines.map(([slug, title, entry]) => ({
    id: `${prefix}-${slug}`,
    title,
    source,
    proofs: { scenarios: entry.scenarios ?? [], mutants: mutantsCrediting(`${prefix}-${slug}`), suites: entry.suites ?? [], invariants: entry.invariants ?? [] },
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
