// Operations that stay open across steps of a controller's protocol (a `wait` or a `cancel` that
// spans several store calls): opened and closed in the history by name, and closed as unknown
// (`info`) when the incarnation that opened them retires.

import type { HistoryRecorder } from './history-recorder.ts';
import type { Node } from './sim-node.ts';

export class OpLedger {
  private readonly ops = new Map<string, { node: Node; f: string }>();

  constructor(private readonly host: { readonly now: number; readonly history: HistoryRecorder }) {}

  open(node: Node, process: string, f: string, value: unknown): void {
    this.host.history.op(this.host.now, process, 'invoke', f, value);
    this.ops.set(process, { node, f });
  }

  close(process: string, type: 'ok' | 'fail' | 'info', value: unknown): void {
    const open = this.ops.get(process);
    if (open === undefined) return;
    this.ops.delete(process);
    this.host.history.op(this.host.now, process, type, open.f, value);
  }

  /**
   * The node's current incarnation retires: each of its fibers stops, the op each had in flight is
   * closed as unknown, and then every op it left open (closeAll).
   */
  retire(node: Node, why: string): void {
    for (const fiber of node.fibers) {
      if (fiber.dead) continue;
      fiber.dead = true;
      // The fiber that raised the retirement has already closed its own op.
      if (fiber.inFlight !== null) this.host.history.op(this.host.now, fiber.inFlight, 'info', this.lastInvokedF(fiber.inFlight), { error: why });
    }
    this.closeAll(node, why);
  }

  /** Closes, in name order, every open op of the node's current incarnation as unknown. */
  closeAll(node: Node, why: string): void {
    const mine: string[] = [];
    for (const [process, open] of this.ops) if (open.node === node && process.startsWith(`${node.proc}:`)) mine.push(process);
    mine.sort();
    for (const process of mine) this.close(process, 'info', { error: why });
  }

  /** The op a process last invoked (what an op in flight at a retirement was). */
  lastInvokedF(process: string): string {
    const events = this.host.history.events;
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.process === process && e.type === 'invoke') return e.f;
    }
    return 'unknown';
  }
}
