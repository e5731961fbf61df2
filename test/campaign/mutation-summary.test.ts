// The protocol mutation run's bookkeeping (campaign/mutation/): how StrykerJS results become a
// killed share and a survivors list, how declared equivalents and shards count, and when the gate
// report counts a summary.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ALL_PROTOCOL_FILES, filesOfShard, JUDGING_PATHS, protocolDigest } from '../../campaign/mutation/protocol-files.ts';
import { mergeSummaries, mutationSuite, parseSummary, summarize, withEquivalents, type MutantOutcome } from '../../campaign/mutation/summary.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const at = (file: string, line: number, status: string, replacement = 'true'): MutantOutcome => ({
  fileName: path.join(ROOT, file), mutatorName: 'ConditionalExpression', replacement, status, location: { start: { line, column: 3 } },
});

describe('mutation summary', () => {
  const outcomes = [
    ...Array.from({ length: 16 }, (_, i) => at('sim/a.ts', i + 1, 'Killed')),
    at('sim/a.ts', 40, 'Timeout'),
    at('sim/a.ts', 50, 'Survived'),
    at('sim/b.ts', 7, 'NoCoverage'),
    at('sim/b.ts', 9, 'Survived', 'false'),
    at('sim/b.ts', 11, 'CompileError'),
  ];

  it('counts timeouts as killed, unreached mutants as survivors, errors as neither, and names each survivor by file and line', () => {
    const s = summarize(outcomes, 'd', ['sim/b.ts', 'sim/a.ts'], 5, [], ROOT);
    expect(s).toMatchObject({ files: ['sim/a.ts', 'sim/b.ts'], killed: 16, timedOut: 1, survived: 2, noCoverage: 1, equivalent: 0 });
    expect(s.score).toBeCloseTo(17 / 20);
    expect(s.survivors.map((v) => `${v.file}:${v.line}`)).toEqual(['sim/a.ts:50', 'sim/b.ts:7', 'sim/b.ts:9']);
  });

  it('leaves a declared equivalent out of the share, and only the one declared (file, line, mutator and replacement)', () => {
    const reason = 'a log label';
    const s = summarize(outcomes, 'd', ['sim/a.ts', 'sim/b.ts'], 5, [
      { file: 'sim/b.ts', line: 9, mutator: 'ConditionalExpression', replacement: 'false', reason },
      { file: 'sim/a.ts', line: 50, mutator: 'ConditionalExpression', replacement: 'false', reason },
    ], ROOT);
    expect(s.equivalent).toBe(1);
    expect(s.score).toBeCloseTo(17 / 19);
    expect(s.survivors.map((v) => `${v.file}:${v.line}`)).toEqual(['sim/a.ts:50', 'sim/b.ts:7']);
  });

  it('counts a declaration made after the run as the run would have, and nothing else', () => {
    const declarations = [{ file: 'sim/b.ts', line: 9, mutator: 'ConditionalExpression', replacement: 'false', reason: 'a log label' }];
    const plain = summarize(outcomes, 'd', ['sim/a.ts', 'sim/b.ts'], 5, [], ROOT);
    expect(withEquivalents(plain, declarations)).toEqual(summarize(outcomes, 'd', ['sim/a.ts', 'sim/b.ts'], 5, declarations, ROOT));
    expect(withEquivalents(plain, [])).toBe(plain);
    expect(withEquivalents(plain, [{ ...declarations[0]!, line: 8 }])).toBe(plain);
  });

  it('merges shards of one version and one seed count, and refuses a mix', () => {
    const a = summarize(outcomes.slice(0, 17), 'd', ['sim/a.ts'], 5, [], ROOT);
    const b = summarize(outcomes.slice(17), 'd', ['sim/b.ts'], 5, [], ROOT);
    expect(mergeSummaries([a, b])).toEqual(summarize(outcomes, 'd', ['sim/a.ts', 'sim/b.ts'], 5, [], ROOT));
    expect(() => mergeSummaries([a, { ...b, seeds: 3 }])).toThrow(/different seed counts/);
    expect(() => mergeSummaries([a, { ...b, digest: 'e' }])).toThrow(/different versions/);
  });

  it('is a passing suite at or above the threshold, a failing one below it, and not counted when made of other code', () => {
    // 17 of 21: below 85%; 17 of 20: exactly 85%.
    const below = summarize([...outcomes, at('sim/b.ts', 60, 'Survived')], 'd', ['sim/a.ts'], 5, [], ROOT);
    expect(mutationSuite(below, 'd')).toEqual({ name: 'protocol-mutation', passed: 17, failed: 4 });
    const above = summarize(outcomes, 'd', ['sim/a.ts'], 5, [], ROOT);
    expect(mutationSuite(above, 'd')).toEqual({ name: 'protocol-mutation', passed: 17, failed: 0 });
    expect(mutationSuite(above, 'other')).toMatchObject({ stale: expect.stringMatching(/other protocol code/) });
    // A run with no mutant shows nothing: not a pass, not counted.
    const empty = summarize([], 'd', [], 5, [], ROOT);
    expect(empty.score).toBeNull();
    expect(mutationSuite(empty, 'd')).toMatchObject({ stale: expect.stringMatching(/no mutant/) });
  });

  it('reads a summary file, or says in one line why it is not one', () => {
    const good = summarize(outcomes, 'd', ['sim/a.ts'], 5, [], ROOT);
    expect(parseSummary(JSON.stringify(good))).toEqual(good);
    expect(parseSummary('{')).toMatchObject({ invalid: expect.stringMatching(/^not JSON/) });
    expect(parseSummary('null')).toMatchObject({ invalid: expect.stringMatching(/^not a mutation summary/) });
    expect(parseSummary(JSON.stringify({ ...good, survivors: 3 }))).toMatchObject({ invalid: expect.stringMatching(/survivors/) });
  });
});

describe('protocol files', () => {
  it('exist, and n shards mutate each exactly once', () => {
    for (const count of [1, 2, 6]) {
      const shards = Array.from({ length: count }, (_, i) => filesOfShard(ROOT, { index: i + 1, count }));
      expect(shards.flat().sort()).toEqual([...ALL_PROTOCOL_FILES].sort());
      expect(shards.every((files) => files.length > 0)).toBe(true);
    }
  });

  it('have a digest of them and of what judges them, that changes with their text', () => {
    const digest = protocolDigest(ROOT);
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(protocolDigest(ROOT, ALL_PROTOCOL_FILES.slice(1))).not.toBe(digest);
    expect(JUDGING_PATHS).toEqual(expect.arrayContaining(['model/checkers', 'scenarios', 'test/mutation']));
  });
});
