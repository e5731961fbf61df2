// A Raft log (seed 001 §55, §283, §340 "one valid consensus leader per term"): entries with the
// term of the leader that created them, indexed from 1; the consistency check of AppendEntries,
// the up-to-date vote check of RequestVote, and the commit rule. Pure: each function returns a new
// log or a number, the simulator (sim/raft/) keeps the state.
//
// A log may be compacted (001 §338 "Raft log/snapshots are bounded/compacted"): the entries up to
// `base` are replaced by a snapshot of the state they built, and only the term of the last of them
// (`baseTerm`) is kept. Indexes do not move: entry `base + 1` is `entries[0]`.
//
// The commit rule is the Raft paper's 5.4.2: a leader commits an index once a majority store it, and only
// if the entry there is of its own term; entries of earlier terms commit with it, never by being
// counted on their own (the case of the Raft paper's Figure 8). `currentTermOnly` false is the
// broken rule, for the mutant that counts replicas of an old entry.

export interface LogEntry<C> {
  readonly term: number;
  readonly command: C;
}

export interface Log<C> {
  /** The last index a snapshot covers (0: none); its entries are gone. */
  readonly base: number;
  /** The term of the entry at `base` (0 for none). */
  readonly baseTerm: number;
  /** The entries after `base`, in order. */
  readonly entries: ReadonlyArray<LogEntry<C>>;
}

export function emptyLog<C>(): Log<C> {
  return { base: 0, baseTerm: 0, entries: [] };
}

/** A log of `entries` from index 1, nothing compacted. */
export function logOf<C>(entries: ReadonlyArray<LogEntry<C>>): Log<C> {
  return { base: 0, baseTerm: 0, entries };
}

export function lastIndex<C>(log: Log<C>): number {
  return log.base + log.entries.length;
}

/** The term of the entry at `index` (1-based): 0 for index 0, undefined past the end or inside the snapshot (except its last index). */
export function termAt<C>(log: Log<C>, index: number): number | undefined {
  if (index === log.base) return log.baseTerm;
  if (index < log.base) return undefined;
  return log.entries[index - log.base - 1]?.term;
}

/** The entry at `index`, if the log still holds it. */
export function entryAt<C>(log: Log<C>, index: number): LogEntry<C> | undefined {
  return index > log.base ? log.entries[index - log.base - 1] : undefined;
}

/** The entries from `index` on (`index` above `base`). */
export function entriesFrom<C>(log: Log<C>, index: number): ReadonlyArray<LogEntry<C>> {
  return log.entries.slice(Math.max(0, index - log.base - 1));
}

export function lastTerm<C>(log: Log<C>): number {
  return log.entries.length === 0 ? log.baseTerm : log.entries[log.entries.length - 1]!.term;
}

export function append<C>(log: Log<C>, entry: LogEntry<C>): Log<C> {
  return { ...log, entries: [...log.entries, entry] };
}

/** RequestVote's check: the candidate's log is at least as up to date as `log` (Raft paper 5.4.1). */
export function candidateUpToDate<C>(log: Log<C>, candidateLastIndex: number, candidateLastTerm: number): boolean {
  const mine = lastTerm(log);
  return candidateLastTerm > mine || (candidateLastTerm === mine && candidateLastIndex >= lastIndex(log));
}

export type AppendResult<C> = { readonly ok: false } | { readonly ok: true; readonly log: Log<C>; readonly matchIndex: number };

/**
 * AppendEntries on a follower: refused unless the log holds `prevIndex` with `prevTerm`; then an
 * existing entry that conflicts with a new one (same index, other term) is deleted with all that
 * follow it, and the entries not already there are appended. An entry that matches is kept, so a
 * delayed or repeated message never shortens the log. Entries the follower's snapshot covers are
 * committed, so they match: they are skipped.
 */
export function appendEntries<C>(log: Log<C>, prevIndex: number, prevTerm: number, entries: ReadonlyArray<LogEntry<C>>): AppendResult<C> {
  const matchIndex = prevIndex + entries.length;
  if (prevIndex < log.base) {
    const covered = log.base - prevIndex;
    if (covered >= entries.length) return { ok: true, log, matchIndex };
    return appendEntries(log, log.base, log.baseTerm, entries.slice(covered));
  }
  if (termAt(log, prevIndex) !== prevTerm) return { ok: false };
  let next = log.entries;
  for (const [offset, entry] of entries.entries()) {
    const at = prevIndex + offset + 1 - log.base;
    if (next[at - 1]?.term === entry.term) continue;
    next = [...next.slice(0, at - 1), ...entries.slice(offset)];
    break;
  }
  return { ok: true, log: next === log.entries ? log : { ...log, entries: next }, matchIndex };
}

/** The log with every entry up to `index` (at most its last) replaced by a snapshot. */
export function compactTo<C>(log: Log<C>, index: number): Log<C> {
  if (index <= log.base) return log;
  const upTo = Math.min(index, lastIndex(log));
  return { base: upTo, baseTerm: termAt(log, upTo)!, entries: log.entries.slice(upTo - log.base) };
}

/**
 * InstallSnapshot on a follower (Raft paper, section 7): a log that holds the snapshot's last
 * entry keeps what follows it; any other log is discarded whole.
 */
export function installSnapshot<C>(log: Log<C>, index: number, term: number): Log<C> {
  if (index <= log.base) return log;
  if (termAt(log, index) === term) return compactTo(log, index);
  return { base: index, baseTerm: term, entries: [] };
}

/**
 * The highest index a leader of `term` may commit: stored by a majority of `matchIndexes` (one per
 * voter, the leader's own last index among them) and, unless `currentTermOnly` is off, of its term.
 */
export function committable<C>(log: Log<C>, matchIndexes: ReadonlyArray<number>, majority: number, term: number, commitIndex: number, currentTermOnly = true): number {
  for (let index = lastIndex(log); index > Math.max(commitIndex, log.base); index--) {
    if (currentTermOnly && termAt(log, index) !== term) continue;
    if (matchIndexes.filter((match) => match >= index).length >= majority) return index;
  }
  return commitIndex;
}

/** The terms of the log's entries from index 1, null where a snapshot replaced them (its last index keeps its term). */
export function knownTerms<C>(log: Log<C>): ReadonlyArray<number | null> {
  const compacted = Array.from({ length: log.base }, (_, i): number | null => (i + 1 === log.base ? log.baseTerm : null));
  return [...compacted, ...log.entries.map((entry) => entry.term)];
}
