// Equality of outcomes as the data they are: JSON-like values compared structurally, object key
// order ignored, a key whose value is undefined the same as an absent key. Two stores agree on
// an outcome exactly when their answers are equal in this sense.

export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  const left = a as Readonly<Record<string, unknown>>;
  const right = b as Readonly<Record<string, unknown>>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    count++;
    if (!Object.hasOwn(right, key) || !sameData(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) count--;
  return count === 0;
}
