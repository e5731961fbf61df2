// gates.json: exactly the `testbed gates --json` document (docs/ARCHITECTURE.md "The CLI contract").

import type { GateResult } from '../gate-status.ts';

export function renderGatesJson(gates: ReadonlyArray<GateResult>): string {
  return `${JSON.stringify({ gates }, null, 2)}\n`;
}
