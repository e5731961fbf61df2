// docs/ARCHITECTURE.md "Shrinking and replay": ddmin keeps the failure, keeps order, stays in budget and is 1-minimal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ddmin, NotFailingError } from '../../campaign/shrink.ts';

/** Fails (predicate true) when the subset contains every element of at least one culprit group. */
function containsAGroup(groups: ReadonlyArray<ReadonlyArray<number>>) {
  return (items: ReadonlyArray<number>): boolean => {
    const present = new Set(items);
    return groups.some((group) => group.every((item) => present.has(item)));
  };
}

function isSubsequence(sub: ReadonlyArray<number>, of: ReadonlyArray<number>): boolean {
  let i = 0;
  for (const item of of) if (i < sub.length && sub[i] === item) i++;
  return i === sub.length;
}

const distinctItems = (maxLength: number) => fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength });

/** Input plus culprit groups drawn from it, so the full input always fails. */
const failingCase = (maxLength: number) =>
  distinctItems(maxLength).chain((items) =>
    fc.tuple(fc.constant(items), fc.array(fc.subarray(items, { minLength: 1, maxLength: Math.min(4, items.length) }), { minLength: 1, maxLength: 3 })),
  );

describe('ddmin', () => {
  it('property: the result still satisfies the predicate and is an order-preserving subsequence', async () => {
    await fc.assert(
      fc.asyncProperty(failingCase(30), async ([items, groups]) => {
        const predicate = containsAGroup(groups);
        const result = await ddmin(items, predicate, { maxRuns: 2_000 });
        expect(predicate(result.items)).toBe(true);
        expect(isSubsequence(result.items, items)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('property: for small inputs the result is 1-minimal (removing any one item makes the predicate fail)', async () => {
    await fc.assert(
      fc.asyncProperty(failingCase(10), async ([items, groups]) => {
        const predicate = containsAGroup(groups);
        const result = await ddmin(items, predicate, { maxRuns: 10_000 });
        expect(result.exhausted).toBe(false);
        for (let i = 0; i < result.items.length; i++) {
          expect(predicate(result.items.filter((_, j) => j !== i))).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: 1-minimal also for a non-monotone predicate (parity of the kept items)', async () => {
    // Fails when an odd number of "culprit" items is kept: removing one culprit can flip it back.
    await fc.assert(
      fc.asyncProperty(
        distinctItems(10).chain((items) => fc.tuple(fc.constant(items), fc.subarray(items, { minLength: 1 }))),
        async ([items, culprits]) => {
          const bad = new Set(culprits);
          const predicate = (subset: ReadonlyArray<number>) => subset.filter((x) => bad.has(x)).length % 2 === 1;
          fc.pre(predicate(items));
          const result = await ddmin(items, predicate, { maxRuns: 10_000 });
          expect(predicate(result.items)).toBe(true);
          for (let i = 0; i < result.items.length; i++) expect(predicate(result.items.filter((_, j) => j !== i))).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: never runs the predicate more than maxRuns times, and says when the budget ran out', async () => {
    await fc.assert(
      fc.asyncProperty(failingCase(40), fc.integer({ min: 1, max: 30 }), async ([items, groups], maxRuns) => {
        let calls = 0;
        const inner = containsAGroup(groups);
        const result = await ddmin(items, (subset) => (calls++, inner(subset)), { maxRuns });
        expect(calls).toBeLessThanOrEqual(maxRuns);
        expect(result.runs).toBe(calls);
        expect(inner(result.items)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('finds a single culprit among many in a logarithmic number of runs', async () => {
    const items = Array.from({ length: 256 }, (_, i) => i);
    const result = await ddmin(items, (subset) => subset.includes(137), { maxRuns: 1_000 });
    expect(result.items).toEqual([137]);
    expect(result.runs).toBeLessThan(40);
  });

  it('shrinks to nothing when the empty input already fails', async () => {
    const result = await ddmin([1, 2, 3], () => true, { maxRuns: 10 });
    expect(result.items).toEqual([]);
  });

  it('rejects an input that does not fail, and a non-positive budget', async () => {
    await expect(ddmin([1, 2], () => false, { maxRuns: 10 })).rejects.toBeInstanceOf(NotFailingError);
    await expect(ddmin([1, 2], () => true, { maxRuns: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
