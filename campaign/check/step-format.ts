// How the check draws its steps, and how a counterexample's path says so. A path replays a
// counterexample by walking fast-check's choices again, so it means something only with the
// arbitraries that drew it: a path of the current format starts with `v3:`; one with `v2:` is
// format 2's, drawn before each field was drawn across its whole domain; one without a prefix is
// format 1's, the check before call contexts, lifecycle steps and live job attempts. The
// arbitraries and placeholder resolution of every format are kept, so that an old path replays
// the very sequence it named.

/**
 * 3, the current format: as 2, and each command field now and then takes an edge of its domain
 * in the rule book (domains.ts, command-values.ts). 2: command steps carry a calling process,
 * lifecycle steps are drawn, and job commands name a job of the state and its current attempt,
 * over the world's literals only. 1: none of those.
 */
export type StepFormat = 1 | 2 | 3;
export const STEP_FORMAT: StepFormat = 3;

/** The prefixes of paths drawn in formats 2 and 3 (format 1's paths have none). */
const PREFIXES: ReadonlyArray<readonly [string, StepFormat]> = [
  ['v3:', 3],
  ['v2:', 2],
];
const CURRENT_PREFIX = `v${STEP_FORMAT}:`;
const CHECK_PATH = /^(v[23]:)?\d+(:\d+)*$/;

/** Whether `text` is a path the check printed: fast-check's numbers separated by colons, after `v3:`, `v2:` or (format 1) nothing. */
export function isCheckPath(text: string): boolean {
  return CHECK_PATH.test(text);
}

/** The step format of a path (the current one without a path) and fast-check's path within it. */
export function formatOfPath(path: string | undefined): { readonly format: StepFormat; readonly fcPath?: string } {
  if (path === undefined) return { format: STEP_FORMAT };
  if (!isCheckPath(path)) throw new Error(`bad check path "${path}": expected numbers separated by colons, after ${CURRENT_PREFIX} when the check printed one`);
  for (const [prefix, format] of PREFIXES) if (path.startsWith(prefix)) return { format, fcPath: path.slice(prefix.length) };
  return { format: 1, fcPath: path };
}

/** The path that replays a counterexample drawn in `format` at fast-check's path `fcPath`. */
export function checkPath(format: StepFormat, fcPath: string): string {
  return format === 1 ? fcPath : `v${format}:${fcPath}`;
}
