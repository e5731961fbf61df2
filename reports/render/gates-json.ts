// gates.json: exactly the `testbed gates --json` document (docs/ARCHITECTURE.md "The CLI contract"):
// the run's one verdict, then every gate row.

import type { GateResult } from '../gate-status.ts';
import type { RunVerdict } from '../run-verdict.ts';

export function gatesDocument(gates: ReadonlyArray<GateResult>, verdict: RunVerdict): { readonly verdict: RunVerdict; readonly gates: ReadonlyArray<GateResult> } {
  return { verdict, gates };
}

export function renderGatesJson(gates: ReadonlyArray<GateResult>, verdict: RunVerdict): string {
  return `${JSON.stringify(gatesDocument(gates, verdict), null, 2)}\n`;
}
