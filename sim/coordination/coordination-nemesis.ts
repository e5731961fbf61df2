// Applies the coordination faults of a plan (declared in faults/, as leader-crash.ts) to
// whoever leads when they fire, and records them in the history like the main nemesis does: a
// leader crash is a `crash`, a leader pause a `pause` / `resume`, and a cut between voters a
// `partition` / `heal` naming the groups of voters that still talk. The database and the provider stay reachable: a
// node may see the database but not a quorum (seed 001 §99).

import { strict as assert } from 'node:assert';
import { EV_COORD, type Node, type Sim } from '../engine.ts';
/** What the nemesis needs of the consensus: who leads now, and the voters. */
export interface Leadership {
  leader(): { readonly name: string } | null;
  readonly voters: ReadonlyArray<{ readonly name: string }>;
}
import type { CoordinationFault } from './faults.ts';

/** The end of a coordination fault, put on the agenda as an EV_COORD event. */
export type FaultTimer =
  | { readonly kind: 'heal'; readonly pairs: ReadonlyArray<readonly [string, string]> }
  | { readonly kind: 'resume'; readonly node: string; readonly process: string };

export class CoordinationNemesis {
  constructor(
    private readonly sim: Sim,
    private readonly cluster: Leadership,
    private readonly voterNode: (name: string) => Node,
    /** Called after every change of the links, so quorum loss is recorded where it happens. */
    private readonly linksChanged: () => void,
  ) {}

  /** Applies the fault to the leader running now; with no running leader it does nothing. */
  apply(fault: CoordinationFault): void {
    if (fault.f === 'quorum-split') {
      const names = this.cluster.voters.map((v) => v.name);
      const pairs: Array<readonly [string, string]> = [];
      for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) pairs.push([names[i]!, names[j]!]);
      this.cut(pairs, fault.durationMs);
      return;
    }
    const voter = this.cluster.leader();
    if (voter === null) return;
    const node = this.voterNode(voter.name);
    if (node.down || node.pausedUntil > this.sim.now) return;
    switch (fault.f) {
      case 'leader-crash':
        this.sim.fault('crash', { node: node.name, process: node.proc, leader: true });
        this.sim.retire(node, 'crash', fault.downMs);
        break;
      case 'leader-pause':
        node.pausedUntil = this.sim.now + fault.durationMs;
        this.sim.fault('pause', { node: node.name, process: node.proc, durationMs: fault.durationMs, leader: true });
        this.sim.queue.push(node.pausedUntil, EV_COORD, 0, 0, { kind: 'resume', node: node.name, process: node.proc } satisfies FaultTimer);
        break;
      case 'leader-isolate':
        this.cut(this.cluster.voters.filter((v) => v.name !== voter.name).map((v) => [voter.name, v.name] as const), fault.durationMs);
        break;
    }
    this.linksChanged();
  }

  /** The end of a cut or of a pause. */
  end(timer: FaultTimer): void {
    if (timer.kind === 'resume') {
      const node = this.voterNode(timer.node);
      if (node.proc === timer.process && node.pausedUntil <= this.sim.now) this.sim.fault('resume', { node: timer.node, process: timer.process });
      return;
    }
    for (const [a, b] of timer.pairs) {
      this.sim.network.unblock(a, b);
      this.sim.network.unblock(b, a);
    }
    this.sim.fault('heal', { groups: groupsOf(timer.pairs) });
    this.linksChanged();
  }

  /** Cuts the links between voter pairs, both ways, for `durationMs`. */
  cut(pairs: ReadonlyArray<readonly [string, string]>, durationMs: number): void {
    assert.ok(pairs.length > 0, 'a cut separates at least one pair of voters');
    for (const [a, b] of pairs) {
      assert.notEqual(a, b, 'a voter is never cut from itself');
      this.sim.network.block(a, b);
      this.sim.network.block(b, a);
    }
    this.sim.fault('partition', { groups: groupsOf(pairs), durationMs });
    this.sim.queue.push(this.sim.now + Math.max(1, durationMs), EV_COORD, 0, 0, { kind: 'heal', pairs } satisfies FaultTimer);
  }
}

/** The voters named by a cut, grouped by who still talks to whom, for the history. */
function groupsOf(pairs: ReadonlyArray<readonly [string, string]>): ReadonlyArray<ReadonlyArray<string>> {
  const names = [...new Set(pairs.flat())].sort();
  const cut = new Set(pairs.map(([a, b]) => `${a}>${b}`));
  const groups: string[][] = [];
  for (const name of names) {
    const group = groups.find((g) => g.every((other) => !cut.has(`${name}>${other}`) && !cut.has(`${other}>${name}`)));
    if (group === undefined) groups.push([name]);
    else group.push(name);
  }
  return groups;
}
