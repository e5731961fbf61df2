// The end of a gate run, whole or merged from shards: save results.json, render every report,
// print the gate table with the rows that did not pass and why, and set the exit code.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pc from 'picocolors';
import { computeGates, gatesDocument, runVerdict, saveResults, verdictLine, writeReports, type GateRunInput, type RunVerdict } from '../reports/index.ts';
import { replayLine as printedReplay } from '../reports/replay-line.ts';
import { EXIT } from './errors.ts';
import { printJson } from './format.ts';

type Gates = ReturnType<typeof computeGates>;

/** Writes results.json and the reports into `out`; prints the table (or `--json`); sets the exit code. */
export async function finishGateRun(input: GateRunInput, options: { readonly out: string; readonly json?: boolean }, footer: ReadonlyArray<string> = []): Promise<void> {
  await mkdir(options.out, { recursive: true });
  await saveResults(input, path.join(options.out, 'results.json'));
  const written = await writeReports(input, options.out);
  const gates = computeGates(input);
  const verdict = runVerdict(input, gates);
  if (options.json) {
    printJson(gatesDocument(gates, verdict));
  } else {
    printGateTable(gates);
    printWhy(gates);
    printVerdict(verdict);
    for (const line of footer) process.stdout.write(`${line}\n`);
    process.stdout.write(`\nreport: ${path.resolve(options.out, 'index.html')}\n`);
    process.stdout.write(pc.dim(`also: ${written.files.filter((f) => !f.endsWith('index.html')).join(', ')}, ${path.join(options.out, 'results.json')}\n`));
  }
  process.exitCode = { fail: EXIT.violation, undecided: EXIT.undecided, pass: EXIT.ok }[verdict.status];
}

/**
 * The run's one verdict (reports/run-verdict.ts), which the exit code and every report state too;
 * then what failed outside the rows above (a row explains its own failures), with replay lines.
 */
function printVerdict(verdict: RunVerdict): void {
  const colour = { pass: pc.green, fail: pc.red, undecided: pc.yellow } as const;
  process.stdout.write(`\n${colour[verdict.status](verdictLine(verdict))}\n`);
  for (const item of [...verdict.failures, ...verdict.undecided]) {
    if (item.kind === 'gate') continue;
    process.stdout.write(`  ${item.why}\n`);
    if (item.replay !== undefined) process.stdout.write(`    ${printedReplay(item.replay)}\n`);
  }
}

function printGateTable(gates: Gates): void {
  const colour = { pass: pc.green, partial: pc.cyan, fail: pc.red, untested: pc.yellow } as const;
  for (const gate of gates) {
    process.stdout.write(`${colour[gate.status](gate.status.padEnd(8))} ${gate.source.padEnd(9)} ${gate.title}\n`);
  }
  const tally = (status: string) => gates.filter((g) => g.status === status).length;
  process.stdout.write(`${gates.length} gates: ${tally('pass')} pass, ${tally('partial')} partial, ${tally('fail')} fail, ${tally('untested')} untested\n`);
}

/**
 * The rows that did not pass, failing first, each with why (its evidence summary) and the lines
 * that replay what failed, so the console says what the HTML and Markdown reports say.
 */
function printWhy(gates: Gates): void {
  const order = ['fail', 'untested', 'partial'] as const;
  const open = order.flatMap((status) => gates.filter((g) => g.status === status));
  if (open.length === 0) return;
  process.stdout.write(`\n${pc.bold('rows that did not pass, and why')}\n`);
  const colour = { partial: pc.cyan, fail: pc.red, untested: pc.yellow } as const;
  for (const gate of open) {
    process.stdout.write(`${colour[gate.status as keyof typeof colour](gate.status)} ${gate.id}: ${gate.evidence.summary}\n`);
    const replays = new Set<string>();
    for (const proof of gate.evidence.scenarios) if (!proof.holds && proof.firstFailure !== undefined) replays.add(proof.firstFailure.replay);
    for (const proof of gate.evidence.mutants) if (!proof.holds && proof.replay !== undefined) replays.add(proof.replay);
    for (const replay of replays) process.stdout.write(`  ${printedReplay(replay)}\n`);
  }
}
