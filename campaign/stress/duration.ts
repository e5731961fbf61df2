// A duration on the command line: `30s`, `500ms`, `2m`, or a bare number of seconds.

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

/** Milliseconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (match === null) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] ?? 's']!;
  return Number.isFinite(ms) ? Math.round(ms) : null;
}
