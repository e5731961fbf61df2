// The Raft log of model/raft-log.ts (001 §283): the consistency check of AppendEntries keeps what
// matches and cuts at the first conflict; RequestVote's up-to-date check; the commit rule counts
// replicas only of the leader's own term unless told otherwise.

import { describe, expect, test } from 'vitest';
import { appendEntries, candidateUpToDate, committable, lastTerm, termAt, type Log } from '../../model/raft-log.ts';

const log = (...terms: number[]): Log<string> => terms.map((term, i) => ({ term, command: `e${i + 1}@${term}` }));
const terms = (l: Log<string>): number[] => l.map((e) => e.term);

describe('raft log', () => {
  test('termAt and lastTerm: index 0 has term 0, past the end nothing', () => {
    expect(termAt(log(1, 2), 0)).toBe(0);
    expect(termAt(log(1, 2), 2)).toBe(2);
    expect(termAt(log(1, 2), 3)).toBeUndefined();
    expect(lastTerm(log())).toBe(0);
  });

  test('appendEntries refuses without the previous entry, cuts at a conflict, and keeps a longer matching log', () => {
    expect(appendEntries(log(1, 1), 2, 2, log(3)).ok).toBe(false);
    expect(appendEntries(log(1), 2, 1, log(3)).ok).toBe(false);
    const cut = appendEntries(log(1, 2, 2), 1, 1, log(3));
    expect(cut.ok && terms(cut.log)).toEqual([1, 3]);
    // A delayed message whose entries are already there does not shorten the log.
    const kept = appendEntries(log(1, 2, 2), 1, 1, log(2));
    expect(kept.ok && [terms(kept.log), kept.matchIndex]).toEqual([[1, 2, 2], 2]);
  });

  test('a candidate is up to date with a later last term, or the same one and at least as long a log', () => {
    expect(candidateUpToDate(log(1, 2), 1, 3)).toBe(true);
    expect(candidateUpToDate(log(1, 2), 2, 2)).toBe(true);
    expect(candidateUpToDate(log(1, 2), 5, 1)).toBe(false);
    expect(candidateUpToDate(log(1, 2, 2), 2, 2)).toBe(false);
  });

  test('a leader of term 4 does not commit an entry of term 2 by counting its replicas; with its own entry above it, both commit', () => {
    const leader = log(1, 2);
    expect(committable(leader, [2, 2, 2, 0, 0], 3, 4, 1)).toBe(1);
    expect(committable(leader, [2, 2, 2, 0, 0], 3, 4, 1, false)).toBe(2);
    expect(committable(log(1, 2, 4), [3, 3, 3, 0, 0], 3, 4, 1)).toBe(3);
  });
});
