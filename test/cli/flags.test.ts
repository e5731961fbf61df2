// A command's flags are declared once (cli/flags.ts): the commander option and the TypeScript type
// of the parsed options both come from the declaration. The types are checked when the project
// compiles (expectTypeOf); the options commander parses are checked here against those types.

import { Command } from 'commander';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { defineFlags, optionOf, withFlags, type AttributeOf, type Decided, type OptionsOf, type Replayed, type ReplayFieldsOf } from '../../cli/flags.ts';
import { buildProgram } from '../../cli/program.ts';
import type { RunOptions } from '../../cli/commands/run-flags.ts';
import type { FailureFile } from '../../campaign/failure-file.ts';

const FLAGS = defineFlags([
  { flags: '--scenario <name>', description: 'a scenario', required: true, replay: 'scenario' },
  { flags: '--seeds <n>', description: 'seeds', default: '200' },
  { flags: '--max-steps <n>', description: 'steps' },
  { flags: '--report [file]', description: 'a page' },
  { flags: '--faults <mode>', description: 'faults', choices: ['sim', 'real'], default: 'sim', replay: 'faults' },
  { flags: '--workers <n>', description: 'workers', parse: (value: string) => Number(value) },
  { flags: '--no-shrink', description: 'no shrinking', replay: 'plan' },
  { flags: '--json', description: 'JSON' },
]);

/** Parses `args` with the declared flags; what the action got. */
async function parsed(args: ReadonlyArray<string>): Promise<{ options: OptionsOf<typeof FLAGS>; operands: ReadonlyArray<string> }> {
  let got: { options: OptionsOf<typeof FLAGS>; operands: ReadonlyArray<string> } | undefined;
  const command = new Command('t').exitOverride().configureOutput({ writeErr: () => {} }).argument('[files...]');
  withFlags(command, FLAGS, async (options, operands) => {
    got = { options, operands };
  });
  await command.parseAsync([...args], { from: 'user' });
  return got!;
}

describe('the options type a declaration gives', () => {
  test('keys as commander keys them: camel case, without no-', () => {
    expectTypeOf<AttributeOf<'--max-steps <n>'>>().toEqualTypeOf<'maxSteps'>();
    expectTypeOf<AttributeOf<'--no-shrink'>>().toEqualTypeOf<'shrink'>();
    expectTypeOf<AttributeOf<'--trust-file-adapter'>>().toEqualTypeOf<'trustFileAdapter'>();
  });

  test('values: strings, a choice, a parser result, true for a bare optional value, booleans for switches; optional unless required, defaulted or --no-', () => {
    expectTypeOf<OptionsOf<typeof FLAGS>>().toEqualTypeOf<{
      readonly scenario: string;
      readonly seeds: string;
      readonly maxSteps?: string;
      readonly report?: string | true;
      readonly faults: 'sim' | 'real';
      readonly workers?: number;
      readonly shrink: boolean;
      readonly json?: boolean;
    }>();
  });

  test('a command options type is its declaration', () => {
    expectTypeOf<RunOptions['faults']>().toEqualTypeOf<'sim' | 'real'>();
    expectTypeOf<RunOptions['interleave']>().toEqualTypeOf<string | true | undefined>();
    expectTypeOf<RunOptions['scenario']>().toEqualTypeOf<string>();
  });

  test('the flags that change a run name their failure-file fields, which the file must have', () => {
    expectTypeOf<ReplayFieldsOf<typeof FLAGS>>().toEqualTypeOf<'scenario' | 'faults' | 'plan'>();
    expectTypeOf<Replayed<FailureFile, typeof FLAGS>>().toEqualTypeOf<true>();
    const PLANTED = defineFlags([{ flags: '--frobnicate', description: 'changes the run', replay: 'frobnicate' }]);
    expectTypeOf<Replayed<FailureFile, typeof PLANTED>>().toEqualTypeOf<{ readonly missingFromFailureFile: 'frobnicate' }>();
  });

  test('every flag says whether it changes a run, or why not', () => {
    const DECIDED = defineFlags([
      { flags: '--seed <n>', description: 'the seed', replay: 'seed' },
      { flags: '--json', description: 'print one JSON document', sameRun: 'output' },
    ]);
    expectTypeOf<Decided<typeof DECIDED>>().toEqualTypeOf<true>();
    const UNDECIDED = defineFlags([...DECIDED, { flags: '--frobnicate <x>', description: 'says neither' }]);
    expectTypeOf<Decided<typeof UNDECIDED>>().toEqualTypeOf<{ readonly undecidedFlags: '--frobnicate <x>' }>();
    expect(UNDECIDED).toHaveLength(3);
  });
});

describe('the options commander parses from a declaration', () => {
  test('defaults, and absent flags left out', async () => {
    const { options, operands } = await parsed(['--scenario', 's']);
    expect(options).toEqual({ scenario: 's', seeds: '200', faults: 'sim', shrink: true });
    expect(operands).toEqual([]);
  });

  test('given values, parsed; the operands after them', async () => {
    const { options, operands } = await parsed(['a.json', '--scenario', 's', '--max-steps', '9', '--report', '--faults', 'real', '--workers', '3', '--no-shrink', '--json', 'b.json']);
    expect(options).toEqual({ scenario: 's', seeds: '200', maxSteps: '9', report: true, faults: 'real', workers: 3, shrink: false, json: true });
    expect(operands).toEqual(['a.json', 'b.json']);
  });

  test('commander refuses what the declaration refuses', async () => {
    await expect(parsed([])).rejects.toThrow("required option '--scenario <name>' not specified");
    await expect(parsed(['--scenario', 's', '--faults', 'both'])).rejects.toThrow('Allowed choices are sim, real');
  });

  test('the option of a declaration is the one the chained calls make', () => {
    const declared = optionOf({ flags: '--seeds <n>', description: 'seeds', default: '200' });
    const chained = new Command().option('--seeds <n>', 'seeds', '200').options[0]!;
    expect({ ...declared }).toEqual({ ...chained });
    const required = optionOf({ flags: '--seed <n>', description: 'the seed', required: true });
    expect({ ...required }).toEqual({ ...new Command().requiredOption('--seed <n>', 'the seed').options[0]! });
  });

  test("commander keys every command's options as AttributeOf types them (camel case, without --no-)", () => {
    const program = buildProgram();
    expect(program.commands.length).toBeGreaterThanOrEqual(11);
    for (const command of program.commands) {
      for (const option of command.options) {
        const word = option.long!.replace(/^--(no-)?/, '');
        expect(option.attributeName()).toBe(word.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
      }
    }
  });
});
