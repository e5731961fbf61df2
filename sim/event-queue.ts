// The simulator's agenda: a binary min-heap ordered by (time, insertion sequence). Ties break by
// the order events were scheduled, so two runs with the same seed pop events in the same order
// (docs/ARCHITECTURE.md "Time and determinism").

/** One scheduled event. `kind` selects the handler with a switch; `a`/`b`/`data` are its arguments. */
export interface SimEvent {
  readonly time: number;
  readonly seq: number;
  readonly kind: number;
  readonly a: number;
  readonly b: number;
  readonly data: unknown;
}

export class EventQueue {
  private readonly heap: SimEvent[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Events scheduled so far (popped or not): a run's event count, for throughput figures. */
  get scheduled(): number {
    return this.nextSeq;
  }

  push(time: number, kind: number, a: number, b: number, data: unknown): SimEvent {
    if (!Number.isInteger(time)) throw new RangeError(`event time must be an integer number of milliseconds, got ${time}`);
    if (time < 0) throw new RangeError(`event time must not be negative, got ${time}`);
    const event: SimEvent = { time, seq: this.nextSeq++, kind, a, b, data };
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

  pop(): SimEvent | undefined {
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

function before(x: SimEvent, y: SimEvent): boolean {
  return x.time < y.time || (x.time === y.time && x.seq < y.seq);
}
