// How long an interleaved batch may make no progress before the gate gives up: something outside
// it holds the server. The statement gate waits no longer for a change, and the scheduler of the
// points inside functions waits no longer for a lock.

/** The batch made no progress for this long: something outside the gate holds the server. */
export const STALL_MS = 15_000;
