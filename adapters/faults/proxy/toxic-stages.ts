// The toxics at work: one stage per toxic per connection direction. A stage turns each chunk that
// reaches it into the chunks it lets through (possibly later, possibly none) and may close or reset
// the whole connection. Behaviour follows Toxiproxy's toxics of the same names.

import type { ToxicSpec } from './toxic-spec.ts';

export interface Chunk {
  readonly data: Buffer;
  /** `performance.now()` when the proxy read the chunk; latency counts from here, not per stage. */
  readonly arrivedAtMs: number;
}

/** What a stage may do to the connection it sits on. */
export interface LinkControl {
  /** Close both sides gracefully (FIN) after what was already written is flushed. */
  close(): void;
  /** Reset both sides (RST), discarding unsent data. */
  reset(): void;
}

export interface ToxicStage {
  readonly name: string;
  spec: ToxicSpec;
  transform(chunk: Chunk): AsyncIterable<Chunk>;
  /** Runs when the source side has ended, before the end is passed on. */
  beforeEnd(): Promise<void>;
  /** Stops timers and wakes any wait; from then on the stage lets everything through. */
  dispose(): void;
}

/** Sleeps that `interrupt()` cuts short, so that removing a toxic releases the data it holds. */
class Interruptible {
  private readonly wakers = new Set<() => void>();
  interrupted = false;

  sleep(ms: number): Promise<void> {
    if (this.interrupted || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  interrupt(): void {
    this.interrupted = true;
    for (const wake of [...this.wakers]) wake();
  }
}

abstract class Stage implements ToxicStage {
  protected readonly waits = new Interruptible();

  constructor(
    public spec: ToxicSpec,
    protected readonly link: LinkControl,
  ) {}

  get name(): string {
    return this.spec.name;
  }
  protected attribute(key: string): number {
    return this.spec.attributes[key] ?? 0;
  }
  abstract transform(chunk: Chunk): AsyncIterable<Chunk>;
  async beforeEnd(): Promise<void> {}
  dispose(): void {
    this.waits.interrupt();
  }
}

/** A toxic that lost its toxicity roll on this connection: it lets everything through. */
class PassThrough extends Stage {
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    yield chunk;
  }
}

class Latency extends Stage {
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    const jitter = this.attribute('jitter');
    const delayMs = this.attribute('latency') + (jitter > 0 ? Math.round((Math.random() * 2 - 1) * jitter) : 0);
    await this.waits.sleep(chunk.arrivedAtMs + delayMs - performance.now());
    yield chunk;
  }
}

/** Drops all data; closes the connection after `timeout` ms, or never when it is 0. */
class Timeout extends Stage {
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(spec: ToxicSpec, link: LinkControl) {
    super(spec, link);
    const timeoutMs = this.attribute('timeout');
    this.timer = timeoutMs > 0 ? setTimeout(() => link.close(), timeoutMs) : undefined;
  }
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    if (this.waits.interrupted) yield chunk;
  }
  override dispose(): void {
    clearTimeout(this.timer);
    super.dispose();
  }
}

/** On the first data it sees: drops it, waits `timeout` ms, then resets the connection. */
class ResetPeer extends Stage {
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    if (this.waits.interrupted) {
      yield chunk;
      return;
    }
    await this.waits.sleep(this.attribute('timeout'));
    if (this.waits.interrupted) {
      yield chunk;
      return;
    }
    this.link.reset();
  }
}

/** Lets `bytes` bytes through, then closes the connection. */
class LimitData extends Stage {
  private transmitted = 0;

  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    const remaining = Math.max(0, this.attribute('bytes') - this.transmitted);
    const data = chunk.data.length > remaining ? chunk.data.subarray(0, remaining) : chunk.data;
    if (data.length > 0) {
      this.transmitted += data.length;
      yield { data, arrivedAtMs: chunk.arrivedAtMs };
    }
    if (this.transmitted >= this.attribute('bytes')) this.link.close();
  }
}

/** Cuts data into slices of `average_size` ± `size_variation` bytes, `delay` microseconds apart. */
class Slicer extends Stage {
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    const average = Math.max(1, this.attribute('average_size'));
    const variation = Math.min(this.attribute('size_variation'), average - 1);
    let offset = 0;
    while (offset < chunk.data.length) {
      const size = average + (variation > 0 ? Math.round((Math.random() * 2 - 1) * variation) : 0);
      const slice = chunk.data.subarray(offset, offset + Math.max(1, size));
      offset += slice.length;
      yield { data: slice, arrivedAtMs: chunk.arrivedAtMs };
      if (offset < chunk.data.length) await this.waits.sleep(this.attribute('delay') / 1000);
    }
  }
}

/** Limits throughput to `rate` KB/s, sending large chunks in 100 ms pieces. */
class Bandwidth extends Stage {
  private debtMs = 0;

  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    const rate = this.attribute('rate');
    if (rate <= 0 || this.waits.interrupted) {
      yield chunk;
      return;
    }
    // One KB/s is one byte per millisecond, so `rate * 100` bytes take 100 ms.
    const piece = rate * 100;
    this.debtMs += chunk.data.length / rate;
    let data = chunk.data;
    while (data.length > piece && !this.waits.interrupted) {
      await this.waits.sleep(100);
      yield { data: data.subarray(0, piece), arrivedAtMs: chunk.arrivedAtMs };
      data = data.subarray(piece);
      this.debtMs -= 100;
    }
    const started = performance.now();
    await this.waits.sleep(this.debtMs);
    this.debtMs -= performance.now() - started;
    yield { data, arrivedAtMs: chunk.arrivedAtMs };
  }
}

/** Holds back the end of the stream for `delay` ms. */
class SlowClose extends Stage {
  async *transform(chunk: Chunk): AsyncIterable<Chunk> {
    yield chunk;
  }
  override async beforeEnd(): Promise<void> {
    await this.waits.sleep(this.attribute('delay'));
  }
}

const STAGES = {
  latency: Latency,
  timeout: Timeout,
  reset_peer: ResetPeer,
  limit_data: LimitData,
  slicer: Slicer,
  bandwidth: Bandwidth,
  slow_close: SlowClose,
} as const;

/** Builds the stage for one connection; the toxicity roll happens here, once per connection. */
export function createStage(spec: ToxicSpec, link: LinkControl): ToxicStage {
  if (Math.random() >= spec.toxicity) return new PassThrough(spec, link);
  return new STAGES[spec.type](spec, link);
}
