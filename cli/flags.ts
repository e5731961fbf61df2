// A command's flags, declared once (docs/ARCHITECTURE.md "The CLI contract"): each declaration
// gives commander its option (`optionOf`) and TypeScript the type of the parsed options
// (`OptionsOf`), so the options a command's action receives cannot drift from the flags it
// declares. A flag that changes a run names the field of the failure file that carries it
// (`replay`); cli/replayed-flags.ts checks at compile time that the field exists.
//
//   export const STRESS_FLAGS = defineFlags([
//     { flags: '--clients <n>', description: 'concurrent clients', default: '16' },
//     { flags: '--seed <n>', description: 'the seed' },
//     { flags: '--json', description: 'print one JSON document' },
//   ]);
//   type StressOptions = OptionsOf<typeof STRESS_FLAGS>;
//   // { readonly clients: string; readonly seed?: string; readonly json?: boolean }

import { Command, Option } from 'commander';

/** One flag of a command. */
export interface Flag {
  /**
   * Commander's flag string: `--seed <n>` takes a value, `--report [file]` may take one (true
   * without it), `--json` is a switch, `--no-shrink` a switch that is true unless given.
   */
  readonly flags: string;
  /** The help text, as `--help` prints it. */
  readonly description: string;
  /** The flag must be given (commander's required option). */
  readonly required?: true;
  /** The value when the flag is not given (not passed through `parse`). */
  readonly default?: string;
  /** The only values the flag takes; commander refuses any other. Not with `parse`. */
  readonly choices?: ReadonlyArray<string>;
  /** Turns the given value into the option's value; what it returns types the option. Not with `choices`. */
  readonly parse?: (value: string, previous: never) => unknown;
  /**
   * Present when the flag changes the run, so that a replay must do what it did: the field of the
   * command's failure file that carries it (the flag's value, or what it decided, such as the
   * plan or the schedule that ran).
   */
  readonly replay?: string;
  /**
   * Present on a flag of a command that writes a failure file when the flag does not change the
   * run: why (it chooses output, a budget, or how the work is spread). A flag of such a command
   * says one or the other (cli/replayed-flags.ts), so a new flag cannot leave a replay unguided.
   */
  readonly sameRun?: string;
}

/** Declares a command's flags, in the order `--help` lists them, keeping their literal types for `OptionsOf`. */
export function defineFlags<const L extends ReadonlyArray<Flag>>(flags: L): L {
  return flags;
}

/** The commander option of a declaration. */
export function optionOf(flag: Flag): Option {
  const option = new Option(flag.flags, flag.description);
  if (flag.required === true) option.makeOptionMandatory();
  if (flag.choices !== undefined) option.choices(flag.choices);
  if (flag.default !== undefined) option.default(flag.default);
  if (flag.parse !== undefined) option.argParser(flag.parse as (value: string, previous: unknown) => unknown);
  return option;
}

/**
 * Adds the declared flags to `command` and makes `run` its action, with the options typed by the
 * declaration and the command's operands (its positional arguments, as given).
 */
export function withFlags<const L extends ReadonlyArray<Flag>>(command: Command, flags: L, run: (options: OptionsOf<L>, operands: ReadonlyArray<string>) => Promise<void>): Command {
  for (const flag of flags) command.addOption(optionOf(flag));
  return command.action(async () => run(command.opts<OptionsOf<L>>(), command.args));
}

/** `--max-steps <n>` → `--max-steps`. */
type LongFlag<F extends string> = F extends `${infer Long} ${string}` ? Long : F;
/** `--max-steps` → `max-steps`; `--no-shrink` → `shrink`. */
type FlagWord<F extends string> = LongFlag<F> extends `--no-${infer Word}` ? Word : LongFlag<F> extends `--${infer Word}` ? Word : never;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** The key commander gives a flag's value in the options: `--max-steps <n>` → `maxSteps`, `--no-shrink` → `shrink`. */
export type AttributeOf<F extends string> = Camel<FlagWord<F>>;

/** What a given flag parses to: its parser's result, one of its choices, the string it took, or a switch's boolean. */
type Parsed<D extends Flag> = D extends { readonly parse: (...args: never[]) => infer P }
  ? P
  : D extends { readonly choices: ReadonlyArray<infer C> }
    ? C
    : D['flags'] extends `${string}<${string}>`
      ? string
      : D['flags'] extends `${string}[${string}]`
        ? string | true
        : boolean;

type ValueOf<D extends Flag> = Parsed<D> | (D extends { readonly default: infer V } ? V : never);

/** Whether the options always hold the flag: it is required, has a default, or is a `--no-` switch. */
type Always<D extends Flag> = D extends { readonly required: true } ? true : D extends { readonly default: string } ? true : D['flags'] extends `--no-${string}` ? true : false;

type Flatten<T> = { readonly [K in keyof T]: T[K] };

/** The parsed options of a command with the flags `L`, keyed as commander keys them. */
export type OptionsOf<L extends ReadonlyArray<Flag>> = Flatten<
  { readonly [D in L[number] as Always<D> extends true ? AttributeOf<D['flags']> : never]: ValueOf<D> } & {
    readonly [D in L[number] as Always<D> extends true ? never : AttributeOf<D['flags']>]?: ValueOf<D>;
  }
>;

/** The failure-file fields that the flags of `L` which change a run name. */
export type ReplayFieldsOf<L extends ReadonlyArray<Flag>> = L[number] extends infer D ? (D extends { readonly replay: infer F extends string } ? F : never) : never;

/**
 * `true` when every flag of `L` that changes a run names a field of `File`, the failure file a
 * replay reads; otherwise the flags' fields that `File` lacks, which `Assert` refuses.
 */
export type Replayed<File, L extends ReadonlyArray<Flag>> = [Exclude<ReplayFieldsOf<L>, keyof File>] extends [never] ? true : { readonly missingFromFailureFile: Exclude<ReplayFieldsOf<L>, keyof File> };

/**
 * `true` when every flag of `L` says whether it changes a run (`replay`) or why not (`sameRun`);
 * otherwise the flags that say neither, which `Assert` refuses.
 */
export type Decided<L extends ReadonlyArray<Flag>> = [Exclude<L[number], { readonly replay: string } | { readonly sameRun: string }>] extends [never]
  ? true
  : { readonly undecidedFlags: Exclude<L[number], { readonly replay: string } | { readonly sameRun: string }>['flags'] };

/** Compiles only for `true`. */
export type Assert<T extends true> = T;
