// One client connection through a proxy: the client socket, the upstream socket, and a pipe per
// direction whose toxic stages can be added, updated and removed while data flows.

import type { Socket } from 'node:net';
import { createStage, type Chunk, type LinkControl, type ToxicStage } from './toxic-stages.ts';
import type { ToxicSpec, ToxicStream } from './toxic-spec.ts';

/** Chunks waiting in one pipe before the source is paused. */
const QUEUE_HIGH_WATER = 64;

class Pipe {
  readonly stages: ToxicStage[] = [];
  private readonly queue: Chunk[] = [];
  private sourceEnded = false;
  private endForwarded = false;
  private pumping = false;

  constructor(
    private readonly source: Socket,
    private readonly sink: Socket,
  ) {
    source.on('data', (data: Buffer) => {
      this.queue.push({ data, arrivedAtMs: performance.now() });
      if (this.queue.length >= QUEUE_HIGH_WATER) source.pause();
      void this.pump();
    });
    source.on('end', () => {
      this.sourceEnded = true;
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const chunk = this.queue.shift();
        if (chunk !== undefined) {
          if (this.queue.length < QUEUE_HIGH_WATER / 2) this.source.resume();
          await this.through(chunk, 0, [...this.stages]);
          continue;
        }
        if (this.sourceEnded && !this.endForwarded) {
          this.endForwarded = true;
          for (const stage of [...this.stages]) await stage.beforeEnd();
          if (!this.sink.destroyed) this.sink.end();
        }
        return;
      }
    } finally {
      this.pumping = false;
    }
  }

  private async through(chunk: Chunk, index: number, stages: ReadonlyArray<ToxicStage>): Promise<void> {
    const stage = stages[index];
    if (stage === undefined) {
      await this.write(chunk.data);
      return;
    }
    for await (const out of stage.transform(chunk)) await this.through(out, index + 1, stages);
  }

  private async write(data: Buffer): Promise<void> {
    if (this.sink.destroyed || this.sink.writableEnded) return;
    if (!this.sink.write(data)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.sink.off('drain', done);
          this.sink.off('close', done);
          resolve();
        };
        this.sink.on('drain', done);
        this.sink.on('close', done);
      });
    }
  }
}

export class ProxyLink implements LinkControl {
  private readonly pipes: Readonly<Record<ToxicStream, Pipe>>;
  private finished = false;

  constructor(
    private readonly client: Socket,
    private readonly upstream: Socket,
    toxics: ReadonlyArray<ToxicSpec>,
    onClosed: (link: ProxyLink) => void,
  ) {
    this.pipes = { upstream: new Pipe(client, upstream), downstream: new Pipe(upstream, client) };
    for (const spec of toxics) this.addToxic(spec);
    let open = 2;
    const closed = (): void => {
      // A reset or error on one side ends the other too; a clean FIN is forwarded by the pipe.
      if (!client.destroyed && upstream.destroyed && !upstream.readableEnded) client.destroy();
      if (!upstream.destroyed && client.destroyed && !client.readableEnded) upstream.destroy();
      open -= 1;
      if (open === 0 && !this.finished) {
        this.finished = true;
        for (const pipe of Object.values(this.pipes)) for (const stage of pipe.stages) stage.dispose();
        onClosed(this);
      }
    };
    for (const socket of [client, upstream]) {
      socket.on('error', () => socket.destroy());
      socket.on('close', closed);
    }
  }

  addToxic(spec: ToxicSpec): void {
    this.pipes[spec.stream].stages.push(createStage(spec, this));
  }

  updateToxic(spec: ToxicSpec): void {
    const stage = this.pipes[spec.stream].stages.find((s) => s.name === spec.name);
    if (stage !== undefined) stage.spec = spec;
  }

  removeToxic(spec: ToxicSpec): void {
    const stages = this.pipes[spec.stream].stages;
    const index = stages.findIndex((s) => s.name === spec.name);
    if (index < 0) return;
    stages[index]?.dispose();
    stages.splice(index, 1);
  }

  close(): void {
    for (const socket of [this.client, this.upstream]) {
      if (!socket.destroyed) socket.destroySoon();
    }
  }

  reset(): void {
    for (const socket of [this.client, this.upstream]) {
      if (!socket.destroyed) socket.resetAndDestroy();
    }
  }

  destroy(): void {
    this.client.destroy();
    this.upstream.destroy();
  }
}
