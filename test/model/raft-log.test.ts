// The Raft log of model/raft-log.ts (001 §283): the consistency check of AppendEntries keeps what
// matches and cuts at the first conflict; RequestVote's up-to-date check; the commit rule counts
// replicas only of the leader's own term unless told otherwise; a compacted log keeps its indexes,
// skips what its snapshot covers, and InstallSnapshot keeps a log that holds the snapshot's entry.

import { describe, expect, test } from 'vitest';
import { appendEntries, candidateUpToDate, committable, compactTo, installSnapshot, knownTerms, lastIndex, lastTerm, logOf, termAt, type Log } from '../../model/raft-log.ts';

const log = (...terms: number[]): Log<string> => logOf(terms.map((term, i) => ({ term, command: `e${i + 1}@${term}` })));
const terms = (l: Log<string>): Array<number | null> => [...knownTerms(l)];
const entries = (...ts: number[]) => log(...ts).entries;

describe('raft log', () => {
  test('termAt and lastTerm: index 0 has term 0, past the end nothing', () => {
    expect(termAt(log(1, 2), 0)).toBe(0);
    expect(termAt(log(1, 2), 2)).toBe(2);
    expect(termAt(log(1, 2), 3)).toBeUndefined();
    expect(lastTerm(log())).toBe(0);
  });

  test('appendEntries refuses without the previous entry, cuts at a conflict, and keeps a longer matching log', () => {
    expect(appendEntries(log(1, 1), 2, 2, entries(3)).ok).toBe(false);
    expect(appendEntries(log(1), 2, 1, entries(3)).ok).toBe(false);
    const cut = appendEntries(log(1, 2, 2), 1, 1, entries(3));
    expect(cut.ok && terms(cut.log)).toEqual([1, 3]);
    // A delayed message whose entries are already there does not shorten the log.
    const kept = appendEntries(log(1, 2, 2), 1, 1, entries(2));
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

  test('a compacted log keeps its indexes: the last entry of the snapshot keeps its term, the ones before it are gone', () => {
    const compacted = compactTo(log(1, 1, 2, 3), 3);
    expect([compacted.base, compacted.baseTerm, lastIndex(compacted), lastTerm(compacted)]).toEqual([3, 2, 4, 3]);
    expect([termAt(compacted, 2), termAt(compacted, 3), termAt(compacted, 4)]).toEqual([undefined, 2, 3]);
    expect(terms(compacted)).toEqual([null, null, 2, 3]);
    expect(compactTo(compacted, 2)).toBe(compacted);
  });

  test('AppendEntries over a snapshot skips the entries it covers and checks from its last one', () => {
    const compacted = compactTo(log(1, 1, 2), 2);
    const all = appendEntries(compacted, 0, 0, entries(1, 1, 2, 4));
    expect(all.ok && [terms(all.log), all.matchIndex]).toEqual([[null, 1, 2, 4], 4]);
    const covered = appendEntries(compacted, 0, 0, entries(1));
    expect(covered.ok && [covered.log, covered.matchIndex]).toEqual([compacted, 1]);
    // The entry after the snapshot conflicts: it and what follows are replaced.
    const cut = appendEntries(compacted, 1, 1, entries(1, 3));
    expect(cut.ok && terms(cut.log)).toEqual([null, 1, 3]);
  });

  test('InstallSnapshot keeps the entries after a snapshot the log holds, and discards a log that conflicts with it', () => {
    expect(terms(installSnapshot(log(1, 2, 2, 3), 3, 2))).toEqual([null, null, 2, 3]);
    const replaced = installSnapshot(log(1, 3, 3), 2, 2);
    expect([terms(replaced), lastIndex(replaced)]).toEqual([[null, 2], 2]);
    expect(terms(installSnapshot(log(1), 4, 2))).toEqual([null, null, null, 2]);
  });

  test('a compacted leader counts only what is after its snapshot', () => {
    expect(committable(compactTo(log(1, 2, 4), 2), [3, 3, 3, 0, 0], 3, 4, 2)).toBe(3);
    expect(committable(compactTo(log(1, 2), 2), [2, 2, 2, 0, 0], 3, 4, 0, false)).toBe(0);
  });
});
