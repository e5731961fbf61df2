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
/** Every default the program gives `flag`, over `command` or else every command that has it: commander's, and those its help text states ("default 10", "auto: 1"). */
function defaultsOf(flag: string, command?: string): string[] {
  return program.commands.filter((c) => command === undefined || c.name() === command).flatMap((c) =>
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
    const unknown = all.filter((m) => m.doc === doc && flags.get(m.command)?.has(m.flag) !== true).map((m) => `${m.doc}:${m.line}: testbed ${m.command} ${m.flag}${flags.has(m.command) ? '' : ' (no such command)'}`);
    expect(unknown).toEqual([]);
  });

  test('a flag the command lacks is found', () => {
    const [m] = mentions('planted.txt', '`npx testbed sweep --seeds 1..2 --frobnicate`').filter((x) => !flags.get(x.command)!.has(x.flag));
    expect(m).toEqual({ doc: 'planted.txt', line: 1, command: 'sweep', flag: '--frobnicate' });
    // A command that does not exist, with a flag after it, is found too.
    expect(mentions('planted.txt', '`npx testbed sweeps --seeds 1..2`').filter((x) => !flags.has(x.command))).toHaveLength(1);
  });
});

/** Each `--flag …` (default V) of `text`, where V is one word: a number or a name; with the command the line names, if it names one. */
function statedDefaults(doc: string, text: string): Array<{ where: string; flag: string; value: string; command?: string }> {
  return text.split('\n').flatMap((line, i) => {
    const named = [...line.matchAll(/testbed ([a-z][a-z-]*)/g)].map(([, c]) => c!).filter((c) => flags.has(c));
    return [...line.matchAll(/`(--[a-z][a-z-]*)[^`]*`,? \(default:? `?([\w.-]+)`?\)/g)].map(([, flag, value]) => {
      // The one command the line names that has the flag, if there is one.
      const having = named.filter((c) => flags.get(c)!.has(flag!));
      return { where: `${doc}:${i + 1}`, flag: flag!, value: value!, ...(having.length === 1 ? { command: having[0]! } : {}) };
    });
  });
}

describe('defaults the documents state', () => {
  const stated = DOCS.flatMap((doc) => statedDefaults(doc, readFileSync(path.join(ROOT, doc), 'utf8')));

  test('the documents state some', () => {
    expect(stated.length).toBeGreaterThan(3);
  });

  test('a default the program does not have is found', () => {
    expect(statedDefaults('planted.txt', 'with `--workers <n>` (default 99) runs').filter((d) => !defaultsOf(d.flag).includes(d.value))).toEqual([{ where: 'planted.txt:1', flag: '--workers', value: '99' }]);
    // Stated on a line that names its command, a default is that command's: race's --workers default is no sweep's.
    expect(statedDefaults('planted.txt', '`testbed sweep`: `--workers <n>` (default 4)').filter((d) => !defaultsOf(d.flag, d.command).includes(d.value))).toHaveLength(1);
  });

  test('each is the default of that flag in a command that has it', () => {
    const wrong = stated.filter((d) => !defaultsOf(d.flag, d.command).includes(d.value)).map((d) => `${d.where}: ${d.flag} default ${d.value}, the program has ${defaultsOf(d.flag, d.command).join(', ') || 'none'}`);
    expect(wrong).toEqual([]);
  });
});
