// The simulator's agenda: a binary min-heap ordered by (time, insertion sequence). Ties break by
// the order events were scheduled, so two runs with the same seed pop events in the same order
// (docs/ARCHITECTURE.md "Time and determinism").

/**
 * What each kind of event carries: its code → the type of its `data`. The simulator's map is
 * `SimEvents` (sim/sim-node.ts), which also says what `a` and `b` mean for the kinds that use them.
 */
export type EventMap = object;
/** Any code, any data: a queue nobody typed. */
type Untyped = Readonly<Record<number, unknown>>;

/** One scheduled event of kind `K`: flat, so that scheduling allocates one object. */
export interface Scheduled<K extends number, D> {
  readonly time: number;
  readonly seq: number;
  readonly kind: K;
  readonly a: number;
  readonly b: number;
  readonly data: D;
}

/** Any event of `M`, discriminated by `kind`: a switch on it narrows `data`. */
export type SimEvent<M extends EventMap = Untyped> = { [K in keyof M & number]: Scheduled<K, M[K]> }[keyof M & number];

export class EventQueue<M extends EventMap = Untyped> {
  private readonly heap: Array<SimEvent<M>> = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Events scheduled so far (popped or not): a run's event count, for throughput figures. */
  get scheduled(): number {
    return this.nextSeq;
  }

  push<K extends keyof M & number>(time: number, kind: K, a: number, b: number, data: M[K]): SimEvent<M> {
    if (!Number.isInteger(time)) throw new RangeError(`event time must be an integer number of milliseconds, got ${time}`);
    if (time < 0) throw new RangeError(`event time must not be negative, got ${time}`);
    const event = { time, seq: this.nextSeq++, kind, a, b, data } as Scheduled<K, M[K]> as SimEvent<M>;
    const heap = this.heap;
    let i = heap.length;
    heap.push(event);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!before(event, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = event;
    return event;
  }

  peekTime(): number | undefined {
    return this.heap[0]?.time;
  }

  pop(): SimEvent<M> | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const child = r < n && before(heap[r]!, heap[l]!) ? r : l;
        if (!before(heap[child]!, last)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

function before(x: { readonly time: number; readonly seq: number }, y: { readonly time: number; readonly seq: number }): boolean {
  return x.time < y.time || (x.time === y.time && x.seq < y.seq);
}
