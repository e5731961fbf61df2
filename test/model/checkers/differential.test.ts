// The differential invariant (docs/ARCHITECTURE.md "History and checkers"; seed 000 §315): for the same operation sequence a candidate store answers what the reference answers.
import { describe, expect, it } from 'vitest';
import { differential } from '../../../model/checkers/differential.ts';
import { HistoryBuilder, acquire, lease } from './history-builder.ts';

function run(secondAnswer: unknown, reorderKeys = false): HistoryBuilder {
  const h = new HistoryBuilder();
  const first = reorderKeys ? { lease: lease('env', 'A', 1), kind: 'Acquired' } : { kind: 'Acquired', lease: lease('env', 'A', 1) };
  h.op('c1#1', acquire('env', 'A'), first);
  h.fault('pause', { node: 'c1' });
  h.call('c1#1', 'wait', { scope: 'env', waiterId: 'w' }, 'ok', { irrelevant: reorderKeys });
  h.op('c2#1', acquire('env', 'B'), secondAnswer);
  return h;
}

describe('differential', () => {
  it('passes identical outcomes, ignoring key order and controller-level operations', () => {
    const busy = { kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_000 };
    expect(differential(run(busy).build(), run(busy, true).build())).toEqual({ valid: true, violations: [] });
  });

  it('fails on the first differing outcome and names the candidate events', () => {
    const reference = run({ kind: 'Busy', holder: 'A', token: 1, expiresAt: 10_000 }).build();
    const candidate = run({ kind: 'Acquired', lease: lease('env', 'B', 2) }).build();
    const verdict = differential(reference, candidate);
    expect(verdict.valid).toBe(false);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toMatchObject({ invariant: 'differential', events: [5, 6] });
    expect(verdict.violations[0]?.message).toContain('operation 2 (Acquire');
  });

  it('is undecided when the command sequences differ', () => {
    const h = new HistoryBuilder();
    h.op('c1#1', acquire('env', 'Z'), { kind: 'Acquired', lease: lease('env', 'Z', 1) });
    expect(differential(run({}).build(), h.build()).valid).toBe('unknown');
  });
});
