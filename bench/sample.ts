// Repeated measurement: every figure is the median of several runs measured in the same process,
// so one slow run (a GC pause, a neighbour on the machine) does not decide it.

import { strict as assert } from 'node:assert';

export function median(values: ReadonlyArray<number>): number {
  assert.ok(values.length > 0, 'the median of no values is undefined');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Runs `measure` `rounds` times, one after another. */
export async function rounds<T>(count: number, measure: (round: number) => Promise<T>): Promise<T[]> {
  assert.ok(Number.isInteger(count) && count >= 1, `rounds must be a positive integer, got ${count}`);
  const results: T[] = [];
  for (let round = 0; round < count; round++) results.push(await measure(round));
  return results;
}

/** Wall milliseconds of `work`, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ readonly ms: number; readonly value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

/** A figure rounded for reading (3 significant digits at most below 1000, whole numbers above). */
export function rounded(value: number): number {
  if (!Number.isFinite(value)) return value;
  if (Math.abs(value) >= 1000) return Math.round(value);
  return Number(value.toPrecision(3));
}
