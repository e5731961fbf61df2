// How the check draws its steps, and how a counterexample's path says so. A path replays a
// counterexample by walking fast-check's choices again, so it means something only with the
// arbitraries that drew it: a path of the current format starts with `v2:`; one without a prefix
// is format 1's, the check before call contexts, lifecycle steps and live job attempts, whose
// arbitraries and placeholder resolution are kept so that it replays the very sequence it named.

/**
 * 2, the current format: command steps carry a calling process, lifecycle steps are drawn, and
 * job commands name a job of the state and its current attempt. 1: none of those.
 */
export type StepFormat = 1 | 2;
export const STEP_FORMAT: StepFormat = 2;

/** The prefix of a path drawn in the current step format. */
const FORMAT_PREFIX = `v${STEP_FORMAT}:`;
const CHECK_PATH = new RegExp(`^(${FORMAT_PREFIX})?\\d+(:\\d+)*$`);

/** Whether `text` is a path the check printed: fast-check's numbers separated by colons, after `v2:` or (format 1) nothing. */
export function isCheckPath(text: string): boolean {
  return CHECK_PATH.test(text);
}

/** The step format of a path (the current one without a path) and fast-check's path within it. */
export function formatOfPath(path: string | undefined): { readonly format: StepFormat; readonly fcPath?: string } {
  if (path === undefined) return { format: STEP_FORMAT };
  if (!isCheckPath(path)) throw new Error(`bad check path "${path}": expected numbers separated by colons, after ${FORMAT_PREFIX} when the check printed one`);
  return path.startsWith(FORMAT_PREFIX) ? { format: STEP_FORMAT, fcPath: path.slice(FORMAT_PREFIX.length) } : { format: 1, fcPath: path };
}

/** The path that replays a counterexample drawn in `format` at fast-check's path `fcPath`. */
export function checkPath(format: StepFormat, fcPath: string): string {
  return format === 1 ? fcPath : `${FORMAT_PREFIX}${fcPath}`;
}
