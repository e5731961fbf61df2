// A store in any language (`--adapter exec:<command>`): the command runs as a child process that
// speaks JSON lines on stdin and stdout, one request and one reply per line, in the manner of
// Maelstrom. The protocol (docs/ARCHITECTURE.md "Stores in other languages"):
//
//   → {"id":1,"type":"init","protocol":1}
//   ← {"id":1,"type":"init_ok","capabilities":{"commands":["Acquire",...]},"snapshot":false}
//   → {"id":2,"type":"execute","now":1500,"command":{"kind":"Acquire",...},"process":"c1#1","node":"c1"}
//   ← {"id":2,"type":"outcome","outcome":{"kind":"Acquired",...}}
//   ← {"id":2,"type":"error","message":"...","unknown":true}    (unknown: the outcome is not known)
//   → {"id":3,"type":"snapshot"}            ← {"id":3,"type":"snapshot_ok","image":...}
//   → {"id":4,"type":"restore","image":...} ← {"id":4,"type":"restore_ok"}
//   → {"id":5,"type":"lifecycle","event":{"kind":"cut-off","process":"c1#1","node":"c1"}}
//   ← {"id":5,"type":"lifecycle_ok","ended":[{"scope":...,"holder":...,"token":...}]}   (only with "lifecycle":true in init_ok)
//
// `now` is the store time in integer milliseconds: the simulator's virtual time, so a store that
// decides expiry from it (and from nothing else) is deterministic. End of stdin asks it to exit.
// Whatever it writes to stderr is kept, and its last line is quoted when the process fails. A
// process that breaks the protocol or takes more than EXEC_REPLY_TIMEOUT_MS to answer is stopped,
// and every later call fails with why.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Command } from '../model/commands.ts';
import { COMMAND_KINDS } from '../model/outcome-kinds.ts';
import { RENEWAL_KINDS, type RenewalKind } from '../model/state.ts';
import { OutcomeUnknownError, StoreLostError, type LifecycleEvent, type Store, type StoreCapabilities, type StoreImage, type StoreOptions } from './port.ts';

export const EXEC_PROTOCOL = 1;

/** The store process broke the protocol or died: the message names what it did. */
export class ExecStoreError extends Error {
  override readonly name = 'ExecStoreError';
}

interface Pending {
  readonly what: string;
  readonly resolve: (reply: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

const STDERR_LINES_KEPT = 20;
const CLOSE_GRACE_MS = 2_000;
/** How long a reply may take before the process is taken for hung and stopped. */
export const EXEC_REPLY_TIMEOUT_MS = 10_000;

class ExecChannel {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly stderr: string[] = [];
  /** Why the channel can no longer be used (the process ended or broke the protocol); null while it can. */
  private broken: string | null = null;
  private exitStatus = 'ended';
  /** Whether the process is gone (ended, never started, stopped for hanging) rather than broke the protocol. */
  private lost = false;
  readonly done: Promise<void>;

  constructor(
    private readonly command: string,
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly replyTimeoutMs: number,
  ) {
    createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line));
    createInterface({ input: child.stderr }).on('line', (line) => {
      this.stderr.push(line);
      if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
    });
    child.stdin.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      this.exitStatus = signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
    });
    // 'close' comes after the process has exited and its output has been read to the end, so a
    // reply written just before exiting is still delivered, and its last words are known.
    this.done = new Promise((resolve) => {
      child.on('error', (error) => {
        this.breakWith(`could not start: ${error.message}`);
        resolve();
      });
      child.on('close', () => {
        this.breakWith(this.exitStatus);
        resolve();
      });
    });
  }

  /** Why the channel is broken: a lost store (exit 3) when the process is gone, a store error (a finding) when it broke the protocol. */
  private brokenError(): Error {
    const message = `${this.broken}${this.lastWords()}`;
    return this.lost ? new StoreLostError(message) : new ExecStoreError(message);
  }

  private lastWords(): string {
    const last = this.stderr.filter((l) => l.trim() !== '').at(-1);
    return last === undefined ? '' : ` (its last words: ${last.trim().slice(0, 200)})`;
  }

  /** Marks the channel unusable and fails every request in flight with why. */
  private breakWith(why: string, lost = true): void {
    if (this.broken === null) {
      this.broken = `store process \`${this.command}\` ${why}`;
      this.lost = lost;
    }
    const error = this.brokenError();
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }

  private onLine(line: string): void {
    if (line.trim() === '' || this.broken !== null) return;
    let reply: unknown;
    try {
      reply = JSON.parse(line);
    } catch {
      this.breakWith(`wrote a line that is not JSON: ${line.slice(0, 120)}`, false);
      return;
    }
    const id = (reply as { id?: unknown } | null)?.id;
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (pending === undefined) {
      this.breakWith(`answered a request it was not asked: ${line.slice(0, 120)}`, false);
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(pending.timer);
    pending.resolve(reply as Record<string, unknown>);
  }

  /** Sends one request and waits for the reply with its id; a process that does not answer in time is stopped. */
  request(type: string, body: Record<string, unknown>, what: string): Promise<Record<string, unknown>> {
    if (this.broken !== null) return Promise.reject(this.brokenError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.breakWith(`did not answer ${what} within ${this.replyTimeoutMs} ms`);
        this.kill();
      }, this.replyTimeoutMs);
      this.pending.set(id, { what, resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ id, type, ...body })}\n`);
    });
  }

  /** Ends the whole process group: the shell and whatever it started. */
  private kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Asks the process to exit (end of stdin), and ends its process group if it does not within a grace period. */
  async close(): Promise<void> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), CLOSE_GRACE_MS);
    await this.done;
    clearTimeout(timer);
  }

  wrongReply(reply: Record<string, unknown>, expected: string, what: string): ExecStoreError {
    if (reply.type === 'error') return new ExecStoreError(`store process \`${this.command}\` failed on ${what}: ${String(reply.message ?? 'no message')}`);
    return new ExecStoreError(`store process \`${this.command}\` answered ${what} with ${JSON.stringify(reply).slice(0, 160)}, expected type "${expected}"`);
  }
}

function capabilitiesOf(command: string, value: unknown): StoreCapabilities {
  if (value === undefined) return {};
  const caps = value as { commands?: unknown; referenceSemantics?: unknown; deterministic?: unknown; leaseBound?: unknown; fencing?: unknown; renewal?: unknown };
  const bad = (why: string) => new ExecStoreError(`store process \`${command}\`: bad capabilities in init_ok: ${why}`);
  if (typeof value !== 'object' || value === null) throw bad('not an object');
  if (caps.referenceSemantics !== undefined && typeof caps.referenceSemantics !== 'boolean') throw bad('referenceSemantics is not a boolean');
  if (caps.deterministic !== undefined && typeof caps.deterministic !== 'boolean') throw bad('deterministic is not a boolean');
  if (caps.leaseBound !== undefined && caps.leaseBound !== 'ttl' && caps.leaseBound !== 'session') throw bad('leaseBound is neither "ttl" nor "session"');
  if (caps.fencing !== undefined && caps.fencing !== 'integer' && caps.fencing !== 'opaque' && caps.fencing !== 'none') throw bad('fencing is not "integer", "opaque" or "none"');
  if (caps.renewal !== undefined && !(RENEWAL_KINDS as ReadonlyArray<unknown>).includes(caps.renewal)) throw bad('renewal is neither "extends" nor "confirms"');
  if (caps.commands !== undefined) {
    if (!Array.isArray(caps.commands)) throw bad('commands is not an array');
    const unknown = caps.commands.filter((k) => !(COMMAND_KINDS as ReadonlyArray<unknown>).includes(k));
    if (unknown.length > 0) throw bad(`unknown command kinds ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  return {
    ...(caps.referenceSemantics === undefined ? {} : { referenceSemantics: caps.referenceSemantics }),
    ...(caps.commands === undefined ? {} : { commands: caps.commands as ReadonlyArray<Command['kind']> }),
    ...(caps.deterministic === undefined ? {} : { deterministic: caps.deterministic }),
    ...(caps.leaseBound === undefined ? {} : { leaseBound: caps.leaseBound as 'ttl' | 'session' }),
    ...(caps.fencing === undefined ? {} : { fencing: caps.fencing as 'integer' | 'opaque' | 'none' }),
    ...(caps.renewal === undefined ? {} : { renewal: caps.renewal as RenewalKind }),
  };
}

/** Starts `command` (through /bin/sh) and opens a store over it. */
export async function createExecStore(options: StoreOptions & { readonly command: string; readonly name?: string; readonly replyTimeoutMs?: number }): Promise<Store> {
  // Its own process group, so that stopping it stops what the shell started too.
  const child = spawn('/bin/sh', ['-c', options.command], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const channel = new ExecChannel(options.command, child, options.replyTimeoutMs ?? EXEC_REPLY_TIMEOUT_MS);
  const now = () => (options.time === 'database' ? Date.now() : options.time.now());
  const name = options.name ?? `exec:${options.command}`;
  let init: Record<string, unknown>;
  let capabilities: StoreCapabilities;
  try {
    init = await channel.request('init', { protocol: EXEC_PROTOCOL }, 'init');
    if (init.type !== 'init_ok') throw channel.wrongReply(init, 'init_ok', 'init');
    capabilities = capabilitiesOf(options.command, init.capabilities);
  } catch (error) {
    await channel.close();
    throw error;
  }
  const store: { -readonly [K in keyof Store]: Store[K] } = {
    name,
    capabilities,
    async execute(command, call) {
      const reply = await channel.request('execute', { now: now(), command, ...(call === undefined ? {} : { process: call.process, node: call.node }) }, command.kind);
      if (reply.type === 'outcome') return reply.outcome as never;
      if (reply.type === 'error' && reply.unknown === true) throw new OutcomeUnknownError(command.kind, new Error(String(reply.message ?? 'no message')));
      throw channel.wrongReply(reply, 'outcome', command.kind);
    },
    close: () => channel.close(),
  };
  if (init.lifecycle === true) {
    store.lifecycle = async (event: LifecycleEvent) => {
      const reply = await channel.request('lifecycle', { event }, `lifecycle ${event.kind}`);
      if (reply.type !== 'lifecycle_ok') throw channel.wrongReply(reply, 'lifecycle_ok', `lifecycle ${event.kind}`);
      return reply.ended === undefined ? undefined : { ended: reply.ended as never };
    };
  }
  if (init.snapshot !== true) return store;
  return {
    ...store,
    async snapshot(): Promise<StoreImage> {
      const reply = await channel.request('snapshot', {}, 'snapshot');
      if (reply.type !== 'snapshot_ok') throw channel.wrongReply(reply, 'snapshot_ok', 'snapshot');
      return { adapter: name, data: reply.image };
    },
    async restore(image: StoreImage): Promise<void> {
      const reply = await channel.request('restore', { image: image.data }, 'restore');
      if (reply.type !== 'restore_ok') throw channel.wrongReply(reply, 'restore_ok', 'restore');
    },
  };
}
