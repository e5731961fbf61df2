// Readable output of run results for a terminal. Colour is off when stdout is not a terminal or
// NO_COLOR is set (picocolors decides).

import pc from 'picocolors';
import { presentFields } from '../campaign/present-fields.ts';
import type { RunResult } from '../sim/run-result.ts';

/** The contract's `run --json` document (docs/ARCHITECTURE.md "The CLI contract"). */
export function runJson(result: RunResult) {
  return {
    scenario: result.scenario,
    seed: result.seed,
    adapter: result.adapter,
    faults: result.faults,
    traceHash: result.traceHash,
    events: result.events,
    operations: result.operations,
    valid: result.valid,
    violations: result.violations,
    ...presentFields({ untested: result.untested, unjudged: result.unjudged }),
    replay: result.replay,
  };
}

export function formatRun(result: RunResult): string {
  const lines: string[] = [];
  const head = `${pc.bold(result.scenario)} seed ${result.seed} on ${result.adapter} (faults: ${result.faults})`;
  // A store that lacks what the scenario sends is not judged on it (sim/capabilities.ts).
  if (result.untested !== undefined) return `${head}: ${pc.yellow(`untested (${result.untested})`)}`;
  const verdict =
    result.valid === true ? pc.green('no violation') : result.valid === false ? pc.red('VIOLATION') : pc.yellow('undecided');
  lines.push(`${head}: ${verdict}`);
  for (const u of result.unjudged ?? []) lines.push(pc.dim(`  not judged: ${u.invariant} (the store lacks ${u.lacks.join(', ')})`));
  lines.push(
    `  ${result.operations} operations, ${result.events} events, ${result.simulatedMs} ms simulated, trace ${result.traceHash.slice(0, 16)}`,
  );
  for (const violation of result.violations) {
    const where = violation.events && violation.events.length > 0 ? ` (events ${violation.events.slice(0, 6).join(', ')})` : '';
    lines.push(`  ${pc.red(violation.invariant)}: ${violation.message}${where}`);
  }
  if (result.valid !== true) lines.push(`replay: ${result.replay}`);
  return lines.join('\n');
}

export function printJson(document: unknown): void {
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}
