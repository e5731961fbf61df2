// The optional fields of a record written as JSON (a failure file, a `--json` document, gate
// evidence): a field without a value (undefined or null) is left out rather than written empty,
// and the fields keep the order they are given in.

/** `fields` with every field that has no value left out. */
export type PresentFields<T> = { -readonly [K in keyof T]?: NonNullable<T[K]> };

/** The fields of `fields` that have a value (neither undefined nor null), in their order. */
export function presentFields<T extends object>(fields: T): PresentFields<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as PresentFields<T>;
}
