// Every `testbed <command> --flag` the documents show is a flag of that command, and every default
// they state for a flag (`--flag` (default 3)) is its default: the README, docs/CLI.md,
// docs/YOUR-STORE.md and docs/ARCHITECTURE.md are checked against the program the command runs
// (cli/program.ts), so a renamed flag or a changed default cannot live on in the docs.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildProgram } from '../cli/program.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = ['README.md', 'docs/CLI.md', 'docs/YOUR-STORE.md', 'docs/ARCHITECTURE.md'];

const program = buildProgram();
const global = program.options.map((o) => o.long).filter((f): f is string => f !== undefined);
/** Every default the program gives `flag`, over the commands that have it: commander's, and those its help text states ("default 10", "auto: 1"). */
function defaultsOf(flag: string): string[] {
  return program.commands.flatMap((c) =>
    c.options
      .filter((o) => o.long === flag)
      .flatMap((o) => [
        ...(o.defaultValue === undefined ? [] : [String(o.defaultValue)]),
        ...[...o.description.matchAll(/(?:default:?|auto:)((?:[^;)]*?\b\d+\b)+)/g)].flatMap(([, said]) => said!.match(/\b\d+\b/g) ?? []),
      ]),
  );
}

const flags = new Map(program.commands.map((c) => [c.name(), new Set([...global, '--help', ...c.options.flatMap((o) => [o.long, o.negate ? undefined : o.long?.replace(/^--/, '--no-')]).filter((f): f is string => f !== undefined)])]));

interface Mention {
  readonly doc: string;
  readonly line: number;
  readonly command: string;
  readonly flag: string;
}

/** Each flag written after `testbed <command>` on one line, up to the end of its code span, a comment or a pipe. */
function mentions(doc: string, text: string): Mention[] {
  const found: Mention[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [, command, rest] of line.matchAll(/testbed ([a-z][a-z-]*)([^`#|;&]*)/g)) {
      if (!flags.has(command!)) continue;
      for (const [flag] of rest!.matchAll(/--[a-z][a-z-]*/g)) found.push({ doc, line: i + 1, command: command!, flag: flag! });
    }
  });
  return found;
}

describe('flags the documents name', () => {
  const all = DOCS.flatMap((doc) => mentions(doc, readFileSync(path.join(ROOT, doc), 'utf8')));

  test('the documents show many (the scan reads them)', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  test.each(DOCS)('every flag %s shows after a command is a flag of that command', (doc) => {
    const unknown = all.filter((m) => m.doc === doc && !flags.get(m.command)!.has(m.flag)).map((m) => `${m.doc}:${m.line}: testbed ${m.command} ${m.flag}`);
    expect(unknown).toEqual([]);
  });

  test('a flag the command lacks is found', () => {
    const [m] = mentions('planted.txt', '`npx testbed sweep --seeds 1..2 --frobnicate`').filter((x) => !flags.get(x.command)!.has(x.flag));
    expect(m).toEqual({ doc: 'planted.txt', line: 1, command: 'sweep', flag: '--frobnicate' });
  });
});

/** Each `--flag …` (default V) of `text`, where V is one word: a number or a name. */
function statedDefaults(doc: string, text: string): Array<{ where: string; flag: string; value: string }> {
  return text.split('\n').flatMap((line, i) => [...line.matchAll(/`(--[a-z][a-z-]*)[^`]*`,? \(default:? `?([\w.-]+)`?\)/g)].map(([, flag, value]) => ({ where: `${doc}:${i + 1}`, flag: flag!, value: value! })));
}

describe('defaults the documents state', () => {
  const stated = DOCS.flatMap((doc) => statedDefaults(doc, readFileSync(path.join(ROOT, doc), 'utf8')));

  test('the documents state some', () => {
    expect(stated.length).toBeGreaterThan(3);
  });

  test('a default the program does not have is found', () => {
    expect(statedDefaults('planted.txt', 'with `--workers <n>` (default 99) runs').filter((d) => !defaultsOf(d.flag).includes(d.value))).toEqual([{ where: 'planted.txt:1', flag: '--workers', value: '99' }]);
  });

  test('each is the default of that flag in a command that has it', () => {
    const wrong = stated.filter((d) => !defaultsOf(d.flag).includes(d.value)).map((d) => `${d.where}: ${d.flag} default ${d.value}, the program has ${defaultsOf(d.flag).join(', ') || 'none'}`);
    expect(wrong).toEqual([]);
  });
});
