// `npm run bench [-- --quick] [--json] [--no-postgres] [--out <file>]`: runs the benchmark suite
// (bench/suite.ts), prints the table, and with --json writes the whole report atomically to
// out/bench.json (or --out). Progress goes to stderr. Exit code 0 whether or not a figure misses
// its target: a benchmark reports, the tests judge.

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../campaign/atomic-write.ts';
import { renderTable, runBench } from './suite.ts';

interface Args {
  readonly quick: boolean;
  readonly json: boolean;
  readonly postgres: boolean;
  readonly out: string;
}

function parseArgs(argv: ReadonlyArray<string>): Args {
  let quick = false;
  let json = false;
  let postgres = true;
  let out = 'out/bench.json';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--json') json = true;
    else if (arg === '--no-postgres') postgres = false;
    else if (arg === '--out' && argv[i + 1] !== undefined) out = argv[++i]!;
    else {
      process.stderr.write(`usage: npm run bench -- [--quick] [--json] [--no-postgres] [--out <file>]\nunknown argument: ${arg}\n`);
      process.exit(2);
    }
  }
  return { quick, json, postgres, out };
}

const args = parseArgs(process.argv.slice(2));
const started = performance.now();
const report = await runBench({ quick: args.quick, postgres: args.postgres, onFigure: (name) => process.stderr.write(`bench: ${name}…\n`) });
process.stdout.write(`${renderTable(report.rows)}\n`);
process.stdout.write(`(${args.quick ? 'quick smoke run' : 'full run'} in ${((performance.now() - started) / 1000).toFixed(1)} s on ${report.machine.cpus} cores, node ${report.machine.node}; medians of repeated runs)\n`);
if (args.json) {
  const file = resolve(args.out);
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
}
