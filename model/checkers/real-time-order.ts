// Real-time order over operations whose replies may be reordered by the network. An operation
// took effect somewhere between its invoke and its completion; only when one completed before the
// other was invoked do we know their order. Checkers compare only such certainly ordered pairs,
// so a delayed reply never produces a false violation.

/** A value that took effect on `key` somewhere within history indices [start, end]. */
export interface Placed<T> {
  readonly key: string;
  readonly start: number;
  readonly end: number;
  readonly value: number;
  readonly item: T;
}

export interface Regression<T> {
  readonly earlier: Placed<T>;
  readonly later: Placed<T>;
}

/**
 * Every item whose value is below (or, with `allowEqual` false, not above) the greatest value on
 * the same key among the items that certainly took effect before it. The earlier item reported is
 * the one carrying that greatest value.
 */
export function regressions<T>(items: ReadonlyArray<Placed<T>>, allowEqual: boolean): ReadonlyArray<Regression<T>> {
  const byEnd = [...items].sort((a, b) => a.end - b.end);
  const byStart = [...items].sort((a, b) => a.start - b.start);
  const highest = new Map<string, Placed<T>>();
  const found: Array<Regression<T>> = [];
  let next = 0;
  for (const later of byStart) {
    for (let done = byEnd[next]; done !== undefined && done.end < later.start; done = byEnd[++next]) {
      const current = highest.get(done.key);
      if (current === undefined || done.value > current.value) highest.set(done.key, done);
    }
    const earlier = highest.get(later.key);
    if (earlier === undefined) continue;
    const regressed = allowEqual ? later.value < earlier.value : later.value <= earlier.value;
    if (regressed) found.push({ earlier, later });
  }
  return found;
}
