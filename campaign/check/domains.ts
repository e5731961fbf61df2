// The value domains of the rule book (model/SEMANTICS.md "Constants", "Leases" on ForceRelease,
// clarifications 9, 14 and 15), as edge values the check draws beside its small world's literals
// (step format 3). A field's edges are derived from its rule, not picked: each bound of the rule,
// one either side of it, a value that is not an integer, and the bounds of the representations a
// store may keep a number in (32-bit signed and unsigned, JavaScript's safe integers), so that a
// store whose check is off by one at a bound, or whose column is narrower than the rule, answers
// otherwise than the model on a value the literals never reach.

import { CAPACITY_MAX, ID_MAX_LENGTH, LEASE_TTL_MAX_MS, PRIORITY_LIMIT, RETENTION_MAX_MS, TOKEN_EPOCH_STRIDE } from '../../model/constants.ts';

/** Bounds of common machine representations of an integer: int32, uint32, IEEE-754 doubles' safe integers. */
export const MACHINE_BOUNDS: ReadonlyArray<number> = [2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER];

function unique<T>(values: ReadonlyArray<T>): T[] {
  return [...new Set(values)];
}

/**
 * The edges of an integer rule `min..max`: each bound and one either side of it, a value that is
 * not an integer, and the machine bounds on both sides of zero. Values past the safe integers are
 * left out: no store can tell them apart, and the model's arithmetic on them is not exact.
 */
export function integerEdges(min: number, max: number): number[] {
  const machine = MACHINE_BOUNDS.flatMap((bound) => [bound, -bound]);
  const edges = [min - 1, min, min + 1, max - 1, max, max + 1, min + 0.5, ...machine];
  return unique(edges.filter((value) => Math.abs(value) <= Number.MAX_SAFE_INTEGER + 1));
}

/** ttl (Leases, Semaphores): an integer in 1..LEASE_TTL_MAX_MS, else ttl-out-of-bounds (§31). */
export const TTL_EDGES = integerEdges(1, LEASE_TTL_MAX_MS);
/** Explicit priority: an integer in -PRIORITY_LIMIT..PRIORITY_LIMIT (§91). */
export const PRIORITY_EDGES = integerEdges(-PRIORITY_LIMIT, PRIORITY_LIMIT);
/** Semaphore capacity: an integer in 1..CAPACITY_MAX. */
export const CAPACITY_EDGES = integerEdges(1, CAPACITY_MAX);
/** Units: integers in 1..2^53 − 1 (clarification 9); 2^53 is the first integer past it. */
export const UNITS_EDGES = integerEdges(1, Number.MAX_SAFE_INTEGER);
/** Idempotency retention: an integer in 1..RETENTION_MAX_MS (30 days, §54), which is past 2^31 − 1. */
export const RETENTION_EDGES = integerEdges(1, RETENTION_MAX_MS);

/**
 * Fencing tokens are integers the store issues (the port's type), never validated: a token no
 * lease has simply names none. Its edges are the first ones, those either side of the recovery
 * stride, and the machine bounds; only integers, as the port's type says.
 */
export const TOKEN_EDGES: ReadonlyArray<number> = unique([0, -1, 1, TOKEN_EPOCH_STRIDE - 1, TOKEN_EPOCH_STRIDE, TOKEN_EPOCH_STRIDE + 1, ...MACHINE_BOUNDS, -(2 ** 31)]);
/** Role epochs start at 0 and only rise (clarification 15): a negative one is Fenced, a large one stays. */
export const EPOCH_EDGES: ReadonlyArray<number> = unique([-1, 0, 1, ...MACHINE_BOUNDS]);
/** Aggregate versions start at 0; a stale or impossible expected version is StaleVersion. */
export const VERSION_EDGES: ReadonlyArray<number> = unique([-1, 0, 1, ...MACHINE_BOUNDS]);
/**
 * Recovery floors: the epochs whose tokens (r × stride + 1) are past 2^31 and 2^32, so that a
 * store keeping tokens in 32 bits issues a wrong one. Higher floors would soon carry tokens past
 * the safe integers, which the model refuses to issue.
 */
export const RECOVERY_FLOORS: ReadonlyArray<number> = [Math.ceil(2 ** 31 / TOKEN_EPOCH_STRIDE), Math.ceil(2 ** 32 / TOKEN_EPOCH_STRIDE)];

/**
 * White space as JavaScript's `String.prototype.trim` strips it (clarification 14): the
 * WhiteSpace code points (tab, vertical tab, form feed, no-break space, byte order mark and every
 * space separator, Zs) and the line terminators.
 */
export const UNICODE_WHITE_SPACE: ReadonlyArray<string> = [
  '\t', '\v', '\f', ' ', '\u00a0', '\u1680', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008',
  '\u2009', '\u200a', '\u202f', '\u205f', '\u3000', '\ufeff', '\n', '\r', '\u2028', '\u2029',
];
/** Look like white space and are not (trim keeps them): zero-width space, Mongolian vowel separator, next line (a C1 control). */
export const NOT_WHITE_SPACE: ReadonlyArray<string> = ['\u200b', '\u180e', '\u0085'];

/**
 * A force release's reason (§200–§206, §290): blank iff `reason.trim() === ''`. The edges are the
 * empty string, each kind of white space alone, all of them at once, the look-alikes that are not
 * blank, a reason wrapped in white space, and a long one.
 */
export const REASON_EDGES: ReadonlyArray<string> = [
  '',
  ...UNICODE_WHITE_SPACE,
  UNICODE_WHITE_SPACE.join(''),
  ...NOT_WHITE_SPACE,
  `${UNICODE_WHITE_SPACE.join('')}stuck${UNICODE_WHITE_SPACE.join('')}`,
  'holder stalled; effects reconciled. '.repeat(300),
];

/**
 * Ids, keys, holders and the other opaque strings (1..ID_MAX_LENGTH UTF-16 code units, no control
 * character U+0001–U+001F or U+007F). Valid edges: white space alone, the longest id in one-unit,
 * two-byte and surrogate-pair characters (one length, three encodings' sizes), a C1 control (not
 * in the rule's range), a letter's other case and other normalisation. Invalid: empty, one unit
 * too long, a control character at each end of the range. U+0000 is left out: PostgreSQL text
 * cannot hold it, so a store on it could only fail where the rule book has no answer to give.
 */
export const VALID_ID_EDGES: ReadonlyArray<string> = [
  ' ',
  'x'.repeat(ID_MAX_LENGTH),
  '\u00e9'.repeat(ID_MAX_LENGTH),
  '\u{1f512}'.repeat(ID_MAX_LENGTH / 2),
  '\u0080',
  'a',
  '\u00e9',
  'e\u0301',
];
export const INVALID_ID_EDGES: ReadonlyArray<string> = ['', 'x'.repeat(ID_MAX_LENGTH + 1), '\u{1f512}'.repeat(ID_MAX_LENGTH / 2 + 1), '\u0001', 'a\u001f', 'a\u007fb'];
export const ID_EDGES: ReadonlyArray<string> = [...VALID_ID_EDGES, ...INVALID_ID_EDGES];
