// Copy-on-write helpers for the model state. The simulator calls the model ~100k times per
// second, so a command copies only the sub-map it changes, and the append-only tombstone log is
// a shared linked list (O(1) append) rather than an array copied on every release.

export function mapWith<K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> {
  const next = new Map(map);
  next.set(key, value);
  return next;
}

export function mapWithout<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

/** A persistent append-only log: each node points at the log before it. */
export interface AppendLog<T> {
  readonly last: T;
  readonly before: AppendLog<T> | null;
  readonly length: number;
}

export function appendTo<T>(log: AppendLog<T> | null, item: T): AppendLog<T> {
  return { last: item, before: log, length: (log?.length ?? 0) + 1 };
}

/** The log's items in append order. */
export function logItems<T>(log: AppendLog<T> | null): ReadonlyArray<T> {
  const items: T[] = new Array<T>(log?.length ?? 0);
  let index = items.length - 1;
  for (let node = log; node !== null; node = node.before) items[index--] = node.last;
  return items;
}
