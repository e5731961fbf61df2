// A Raft log (seed 001 §55, §283, §340 "one valid consensus leader per term"): entries with the
// term of the leader that created them, indexed from 1; the consistency check of AppendEntries,
// the up-to-date check of RequestVote, and the commit rule. Pure: each function returns a new log
// or a number, the simulator (sim/raft/) keeps the state.
//
// The commit rule is the Raft paper's 5.4.2: a leader commits an index once a majority store it, and only
// if the entry there is of its own term; entries of earlier terms commit with it, never by being
// counted on their own (the case of the Raft paper's Figure 8). `currentTermOnly` false is the
// broken rule, for the mutant that counts replicas of an old entry.

export interface LogEntry<C> {
  readonly term: number;
  readonly command: C;
}

export type Log<C> = ReadonlyArray<LogEntry<C>>;

/** The term of the entry at `index` (1-based); 0 for index 0, undefined past the end. */
export function termAt<C>(log: Log<C>, index: number): number | undefined {
  if (index === 0) return 0;
  return log[index - 1]?.term;
}

export function lastTerm<C>(log: Log<C>): number {
  return log.length === 0 ? 0 : log[log.length - 1]!.term;
}

/** RequestVote's check: the candidate's log is at least as up to date as `log` (Raft paper 5.4.1). */
export function candidateUpToDate<C>(log: Log<C>, candidateLastIndex: number, candidateLastTerm: number): boolean {
  const mine = lastTerm(log);
  return candidateLastTerm > mine || (candidateLastTerm === mine && candidateLastIndex >= log.length);
}

export type AppendResult<C> = { readonly ok: false } | { readonly ok: true; readonly log: Log<C>; readonly matchIndex: number };

/**
 * AppendEntries on a follower: refused unless the log holds `prevIndex` with `prevTerm`; then an
 * existing entry that conflicts with a new one (same index, other term) is deleted with all that
 * follow it, and the entries not already there are appended. An entry that matches is kept, so a
 * delayed or repeated message never shortens the log.
 */
export function appendEntries<C>(log: Log<C>, prevIndex: number, prevTerm: number, entries: Log<C>): AppendResult<C> {
  if (termAt(log, prevIndex) !== prevTerm) return { ok: false };
  let next = log;
  for (const [offset, entry] of entries.entries()) {
    const index = prevIndex + offset + 1;
    const existing = termAt(next, index);
    if (existing === entry.term) continue;
    next = [...next.slice(0, index - 1), ...entries.slice(offset)];
    break;
  }
  return { ok: true, log: next, matchIndex: prevIndex + entries.length };
}

/**
 * The highest index a leader of `term` may commit: stored by a majority of `matchIndexes` (one per
 * voter, the leader's own last index among them) and, unless `currentTermOnly` is off, of its term.
 */
export function committable<C>(log: Log<C>, matchIndexes: ReadonlyArray<number>, majority: number, term: number, commitIndex: number, currentTermOnly = true): number {
  for (let index = log.length; index > commitIndex; index--) {
    if (currentTermOnly && termAt(log, index) !== term) continue;
    if (matchIndexes.filter((match) => match >= index).length >= majority) return index;
  }
  return commitIndex;
}
