// Equality of two reference-model states (model/state.ts) as data: maps, sets, arrays and plain
// objects compared structurally. The model copies only what a command changes, so two states
// reached from one state share most of their parts, and a shared part is equal at once.

export function sameState(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Map) return b instanceof Map && a.size === b.size && [...a].every(([key, value]) => b.has(key) && sameState(value, b.get(key)));
  if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((item) => b.has(item));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameState(item, b[i]));
  if (b instanceof Map || b instanceof Set || Array.isArray(b)) return false;
  const left = a as Readonly<Record<string, unknown>>;
  const right = b as Readonly<Record<string, unknown>>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameState(left[key], right[key]));
}
