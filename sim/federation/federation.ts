// The federation of a plan with `federation` (seed 000 §163–§169, §266–§268): the controllers are
// spread over sites, and per domain (a tenant) one site holds the authority under an authority
// epoch, the role epoch `authority:<domain>` (model/federation-authority.ts). The federation's
// authority service is what this class keeps: who holds each domain, under which epoch. Each site
// keeps its own view of it, which it learns from the service while its WAN links are up; a site
// cut off keeps the view it had and goes on taking local leases under it (§267). A failover
// moves a domain's authority to another site under a higher epoch and writes that epoch to the
// store before the new site acts on it, as the recovery procedure advances the recovery epoch
// before the database takes connections again; from then on the store fences the old site's
// leases and writes, whatever the old site believes (§168, §296). There is no lock service
// across the WAN (§166): nothing here is asked before a lease; a site asks only its own view.

import { strict as assert } from 'node:assert';
import type { Command } from '../../model/commands.ts';
import { authorityRole } from '../../model/federation-authority.ts';
import type { FaultKind } from '../../model/history.ts';
import type { OutcomeOf } from '../../model/outcomes.ts';
import { siteOfController } from '../../scenarios/federation-options.ts';
import type { FederationWorld, LearnedAuthority } from '../../faults/package.ts';
import type { HistoryRecorder } from '../history-recorder.ts';
import type { Plan } from '../plan.ts';
import type { Node } from '../sim-node.ts';

/** What the federation needs of the simulation (the simulator, engine.ts, is one). */
export interface FederationHost {
  readonly now: number;
  readonly plan: Plan;
  readonly controllers: ReadonlyArray<Node>;
  readonly network: { block(from: string, to: string): void; unblock(from: string, to: string): void };
  readonly history: HistoryRecorder;
  fault(f: FaultKind, value: Readonly<Record<string, unknown>>): void;
  executeDirect<C extends Command>(command: C, process?: string): Promise<OutcomeOf<C>>;
}

/** Who holds a domain's authority, under which epoch; `site` null: some site this one does not know. */
export interface Authority {
  readonly site: number | null;
  readonly epoch: number;
}

export class Federation implements FederationWorld {
  readonly sites: number;
  private readonly siteByNode = new Map<string, number>();
  /** The authority service's record: the truth every site learns when its links are up. */
  private readonly authority = new Map<string, { site: number; epoch: number }>();
  /** Each site's view of each domain's authority (index: site - 1). */
  private readonly views: Array<Map<string, Authority>>;
  private readonly cut = new Set<number>();
  /** Procedures that wrote an authority epoch to the store, for their process names. */
  private procedures = 0;

  constructor(private readonly host: FederationHost) {
    const options = host.plan.federation;
    assert.ok(options !== undefined, 'a federation runs only in a federated plan');
    this.sites = options.sites;
    host.controllers.forEach((node, i) => this.siteByNode.set(node.name, siteOfController(i + 1, this.sites)));
    options.domains.forEach(({ domain, site }) => this.authority.set(domain, { site, epoch: 1 }));
    this.views = Array.from({ length: this.sites }, () => new Map([...this.authority].map(([domain, a]) => [domain, { ...a }])));
  }

  /**
   * Records who holds what and writes each domain's first authority epoch to the store, before any
   * operation starts (a deployment-time setting, like the capacities).
   */
  async start(): Promise<void> {
    const nodes = Array.from({ length: this.sites }, (_, i) => [...this.siteByNode].filter(([, site]) => site === i + 1).map(([name]) => name));
    const domains = this.host.plan.federation!.domains.map((d) => ({ domain: d.domain, role: authorityRole(d.domain), site: d.site, epoch: 1, scopes: d.scopes }));
    this.host.fault('federation', { sites: nodes, domains });
    for (const { role } of domains) await this.establish(role, 1);
  }

  siteOf(node: string): number {
    const site = this.siteByNode.get(node);
    assert.ok(site !== undefined, `${node} is a controller of some site`);
    return site;
  }

  /** What `site` believes of `domain`'s authority. */
  viewOf(site: number, domain: string): Authority {
    const view = this.views[site - 1]?.get(domain);
    assert.ok(view !== undefined, `site ${site} knows of domain ${domain}`);
    return view;
  }

  isCut(site: number): boolean {
    return this.cut.has(site);
  }

  /**
   * Where an operation of `domain` that arrived at `node` runs: at a controller of the site that
   * node's site believes holds the authority, in the same place of that site's list (§167: only
   * the authority site takes the domain's leases). It stays at `node` when its own site holds the
   * authority, when it knows of none, or when the WAN between the two sites is cut: the controller
   * then decides from its own site's view (§267).
   */
  route(node: string, domain: string): string {
    const site = this.siteOf(node);
    const view = this.viewOf(site, domain);
    if (view.site === null || view.site === site || this.cut.has(site) || this.cut.has(view.site)) return node;
    const here = this.nodesOf(site).indexOf(node);
    const there = this.nodesOf(view.site);
    return there[Math.min(here, there.length - 1)]!;
  }

  /** The store fenced `site` on `domain` at `currentEpoch`: a newer authority exists, held by some other site. */
  fenced(site: number, domain: string, currentEpoch: number): void {
    const view = this.viewOf(site, domain);
    if (currentEpoch < view.epoch) return;
    this.views[site - 1]!.set(domain, { site: null, epoch: currentEpoch });
  }

  /** The controllers of `site`, in name order. */
  nodesOf(site: number): ReadonlyArray<string> {
    return [...this.siteByNode].filter(([, s]) => s === site).map(([name]) => name);
  }

  cutSite(site: number): ReadonlyArray<string> | null {
    if (this.cut.has(site) || site < 1 || site > this.sites) return null;
    this.cut.add(site);
    this.eachWanLink(site, (a, b) => this.host.network.block(a, b));
    return this.nodesOf(site);
  }

  healSite(site: number): ReadonlyArray<LearnedAuthority> | null {
    if (!this.cut.delete(site)) return null;
    this.eachWanLink(site, (a, b) => this.host.network.unblock(a, b));
    const learned: LearnedAuthority[] = [];
    for (const [domain, a] of [...this.authority].sort(([x], [y]) => (x < y ? -1 : 1))) {
      this.views[site - 1]!.set(domain, { ...a });
      learned.push({ domain, site: a.site, epoch: a.epoch });
    }
    return learned;
  }

  /** Every site cut now, for the liveness phase, which heals them. */
  cutSites(): ReadonlyArray<number> {
    return [...this.cut].sort((a, b) => a - b);
  }

  failover(domain: string, to: number | undefined): Readonly<Record<string, unknown>> {
    const current = this.authority.get(domain);
    if (current === undefined) return { domain, skipped: true, reason: 'no such domain' };
    const target = to ?? this.nextSite(current.site);
    if (target === null || target === current.site || target > this.sites) return { domain, skipped: true, reason: 'no other site to take the authority' };
    // A cut site cannot be told it now holds the authority: the federation picks one it reaches.
    if (this.cut.has(target)) return { domain, skipped: true, reason: `site ${target} is cut off` };
    const next = { site: target, epoch: current.epoch + 1 };
    this.authority.set(domain, next);
    for (let site = 1; site <= this.sites; site++) if (!this.cut.has(site)) this.views[site - 1]!.set(domain, { ...next });
    return { domain, role: authorityRole(domain), from: current.site, to: target, epoch: next.epoch };
  }

  /** Writes `epoch` of `role` to the store from the database host, recorded as an operation of the procedure. */
  async establish(role: string, epoch: number): Promise<void> {
    this.procedures++;
    const process = `federation#${this.procedures}`;
    const command = { kind: 'AdvanceRoleEpoch' as const, role, epoch };
    this.host.history.op(this.host.now, process, 'invoke', command.kind, command);
    const outcome = await this.host.executeDirect(command, process);
    this.host.history.op(this.host.now, process, 'ok', command.kind, outcome);
  }

  /** The next site after `from` that is not cut, cyclically, or null. */
  private nextSite(from: number): number | null {
    for (let step = 1; step < this.sites; step++) {
      const site = ((from - 1 + step) % this.sites) + 1;
      if (!this.cut.has(site)) return site;
    }
    return null;
  }

  /** Each directed link between a controller of `site` and a controller of another site. */
  private eachWanLink(site: number, act: (from: string, to: string) => void): void {
    for (const [a, siteA] of this.siteByNode) {
      if (siteA !== site) continue;
      for (const [b, siteB] of this.siteByNode) {
        if (siteB === site) continue;
        act(a, b);
        act(b, a);
      }
    }
  }
}
