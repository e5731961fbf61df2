// Agents and their event streams (seed 001 §112–§118, §274–§275; `coordination.agents`): each
// agent holds one connection to a daemon (any controller, §114) and streams the job events
// (submitted, done) from a cursor, polling every `agentPollMs`. The event log is a database
// table (§113, §116): any daemon serves it from the agent's cursor. When the agent's daemon dies
// (crash, restart: a new incarnation), the agent connects after `agentReconnectMs` to a daemon
// that is up (§115; any of them, the same node restarted included) and resumes after its cursor
// (§112, backfill). A paused daemon serves nothing while it is paused; its agents wait for it.
//
// The history gets `agent-fleet` `{ agents, daemons, pollMs, reconnectMs }` first, `agent-connected` `{ agent, daemon, process, cursor }`, `agent-disconnected`
// `{ agent, daemon, process }` when the agent finds its daemon gone, and `agent-received`
// `{ agent, daemon, seqs }` for each poll that delivered events (their sequence numbers, 1 up).
// The broken rules (model/controller-policy.ts): a stream resumed at the live tail rather than the
// cursor, a reconnected stream that sends its backfill and then nothing more, a daemon that serves
// the events its own process saw rather than the table, and an agent that waits for its own daemon
// to come back.

import type { ControllerPolicy } from '../../model/controller-policy.ts';
import type { CoordinationOptions } from '../../scenarios/coordination-options.ts';
import { EV_COORD, type Node, type Sim, type SimCoordination } from '../engine.ts';
import type { Stream } from '../prng.ts';
import type { JobTable } from './jobs.ts';

export type AgentTimer = { readonly kind: 'agent-poll'; readonly agent: number };

interface Agent {
  readonly name: string;
  daemon: Node | null;
  /** The daemon process it is connected to (a restart makes another). */
  process: string;
  /** The daemon it lost last, and when it may connect again. */
  lost: Node | null;
  reconnectAt: number;
  /** The last sequence number it received (0: none). */
  cursor: number;
  /** Deliveries left on this connection: unbounded, or (broken) one backfill after a reconnect. */
  deliveries: number;
}

export class AgentFleet {
  private readonly agents: Agent[] = [];
  /** The event log: the table every daemon reads; entry i is sequence number i + 1. */
  private events = 0;
  /** How many events the table held when each daemon process was first seen: what its memory lacks. */
  private readonly seenFrom = new Map<string, number>();
  private readonly stream: Stream;
  private readonly policy: ControllerPolicy;

  constructor(
    private readonly sim: Sim,
    private readonly options: CoordinationOptions,
  ) {
    this.stream = sim.streams.get('agents');
    this.policy = sim.policy;
    for (let i = 1; i <= options.agents; i++) this.agents.push({ name: `agent${i}`, daemon: null, process: '', lost: null, reconnectAt: 0, cursor: 0, deliveries: Infinity });
  }

  start(): void {
    this.sim.fault('agent-fleet', { agents: this.agents.length, daemons: this.sim.controllers.map((node) => node.name), pollMs: this.options.agentPollMs, reconnectMs: this.options.agentReconnectMs });
    for (const [i, agent] of this.agents.entries()) {
      this.connect(agent);
      this.arm(i);
    }
  }

  /** A job event was written to the table (submitted or done). */
  append(): void {
    this.noteDaemons();
    this.events += 1;
  }

  poll(timer: AgentTimer): void {
    const agent = this.agents[timer.agent]!;
    this.noteDaemons();
    this.arm(timer.agent);
    const daemon = agent.daemon;
    if (daemon === null) {
      if (this.sim.now >= agent.reconnectAt) this.connect(agent);
      return;
    }
    if (daemon.down || daemon.proc !== agent.process) {
      this.sim.fault('agent-disconnected', { agent: agent.name, daemon: daemon.name, process: agent.process });
      agent.daemon = null;
      agent.lost = daemon;
      agent.reconnectAt = this.sim.now + this.options.agentReconnectMs;
      return;
    }
    if (daemon.pausedUntil > this.sim.now) return;
    this.deliver(agent, daemon);
  }

  private deliver(agent: Agent, daemon: Node): void {
    // The table holds every event; the broken daemon serves only those its own process saw.
    const from = this.policy.apiReadsDatabase ? agent.cursor : Math.max(agent.cursor, this.seenFrom.get(daemon.proc) ?? 0);
    if (from >= this.events || agent.deliveries === 0) return;
    agent.deliveries -= 1;
    const seqs = Array.from({ length: this.events - from }, (_, i) => from + i + 1);
    agent.cursor = this.events;
    this.sim.fault('agent-received', { agent: agent.name, daemon: daemon.name, seqs });
  }

  /** Connects to a daemon that is up: any of them, or (broken) only the one it lost. */
  private connect(agent: Agent): void {
    const up = this.sim.controllers.filter((node) => !node.down);
    const choices = this.policy.agentsFailOver || agent.lost === null ? up : up.filter((node) => node === agent.lost);
    if (choices.length === 0) return;
    const daemon = this.stream.pick(choices);
    agent.daemon = daemon;
    agent.process = daemon.proc;
    // Resumed at the cursor (backfill), or, broken, at the table's end: what came meanwhile is skipped.
    if (!this.policy.streamResumesAtCursor && agent.lost !== null) agent.cursor = this.events;
    // The stream stays live after its backfill, or, broken, a reconnected stream sends the backlog once and no more.
    agent.deliveries = this.policy.streamStaysLive || agent.lost === null ? Infinity : 1;
    this.sim.fault('agent-connected', { agent: agent.name, daemon: daemon.name, process: daemon.proc, cursor: agent.cursor });
  }

  /** Daemon processes seen for the first time start their memory at the table's current end. */
  private noteDaemons(): void {
    for (const node of this.sim.controllers) if (!node.down && !this.seenFrom.has(node.proc)) this.seenFrom.set(node.proc, this.events);
  }

  private arm(agent: number): void {
    this.sim.queue.push(this.sim.now + this.options.agentPollMs, EV_COORD, 0, 0, { kind: 'agent-poll', agent } satisfies AgentTimer);
  }
}

/** A coordination service with its jobs table. */
export interface JobsService extends SimCoordination {
  readonly jobs: JobTable;
  start(): void;
}

/** The service with `options.agents` agents streaming its job events, or the service itself without agents. */
export function withAgents(service: JobsService, sim: Sim, options: CoordinationOptions): SimCoordination & { start(): void } {
  if (options.agents === 0) return service;
  const fleet = new AgentFleet(sim, options);
  service.jobs.listen(() => fleet.append());
  return {
    start: () => {
      service.start();
      fleet.start();
    },
    handle: async (timer) => (timer.kind === 'agent-poll' ? fleet.poll(timer as AgentTimer) : service.handle(timer)),
    submit: (op, node) => service.submit(op, node),
    finish: (endMs) => service.finish(endMs),
    onRetire: (node) => service.onRetire(node),
    onRestart: (node) => service.onRestart(node),
    applyFault: (fault) => service.applyFault(fault),
    picture: () => service.picture(),
  };
}
