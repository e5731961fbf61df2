// The nemesis (Jepsen): applies the plan's faults to the simulated world and records each one in
// the history — partitions and their healing, message loss, pauses, controller crashes, clock
// skew, database crash, failover to a lagging replica and restore from an older backup (with the
// recovery-epoch mitigation, §272–§276), and the liveness phase that heals everything. With real
// faults, each one is also applied for real while simulated time stands still.

import type { StoreImage } from '../adapters/port.ts';
import type { Command } from '../model/commands.ts';
import type { FaultKind } from '../model/history.ts';
import type { ModelState } from '../model/state.ts';
import type { NemesisHost } from './nemesis-host.ts';
import type { Node } from './sim-node.ts';
import type { CoordinationFault } from './coordination/faults.ts';
import { faultPackage, type ScriptedFault } from '../faults/index.ts';
import type { FaultWorld } from '../faults/package.ts';

export class Nemesis {
  /** Replica/backup images, taken at a fixed cadence when the plan has failover or restore. */
  private readonly images: Array<{ time: number; image: StoreImage; shadow: ReadonlyArray<ModelState> }> = [];

  constructor(
    private readonly sim: NemesisHost,
    /** The recovery epoch advanced: these scopes wait for the recovery procedure. */
    private readonly afterRecoveryEpoch: (scopes: ReadonlyArray<string>) => void,
  ) {}

  /** Records a fault in the history and, with real faults, applies it for real. */
  async record(f: FaultKind, value: Readonly<Record<string, unknown>>): Promise<void> {
    this.sim.fault(f, value);
    this.sim.sessions.faultRecorded(f, value);
    if (this.sim.realFaults === null) return;
    const outcome = await this.sim.realFaults.apply({ f, value });
    this.sim.realActions.push({ f, outcome: outcome.kind === 'applied' ? outcome.action : `simulated-only: ${outcome.reason}` });
  }

  /** Starts a fault of the plan: its kind (faults/) says what it does. */
  async apply(fault: ScriptedFault): Promise<void> {
    const kind = faultPackage(fault);
    if (!this.sim.faultsOn && kind.evenWhenHealed !== true) return;
    await kind.apply(this.worldFor(fault), fault);
  }

  /** Ends a timed fault (a partition heals, a paused controller resumes, the database restarts). */
  async end(fault: ScriptedFault): Promise<void> {
    await faultPackage(fault).end?.(this.worldFor(fault), fault);
  }

  /** The simulated world as a fault kind sees it (faults/package.ts), for one fault. */
  private worldFor(fault: ScriptedFault): FaultWorld {
    const sim = this.sim;
    return {
      get now() {
        return sim.now;
      },
      record: (f, value) => this.record(f, value),
      endAt: (time) => sim.scheduleFaultEnd(time, fault),
      network: sim.network,
      controller: (name) => sim.nodes.get(name),
      crash: (node, downMs) => sim.retire(node as Node, 'crash', downMs),
      database: {
        get down() {
          return sim.dbDown;
        },
        setDown(down: boolean): void {
          sim.dbDown = down;
          // Stopping the server breaks every connection.
          if (down) sim.dbConn++;
        },
      },
      replaceImage: (f, ageMs, extra) => this.replaceImage(f, ageMs, extra),
      scriptProviderTimeouts: (count, appliedPct) => sim.provider.scriptTimeouts(count, appliedPct),
      coordination: (f) => sim.coordination?.applyFault(f as CoordinationFault),
      federation: sim.federation,
    };
  }

  /**
   * Simulated: takes a replica/backup image at the cadence. Real: prepares the fault `prepare`
   * ahead of time — cuts the replication link before a failover, takes the data-directory copy
   * before a restore — without recording anything in the history.
   */
  async takeSnapshot(prepare: ScriptedFault | null): Promise<void> {
    if (this.sim.realFaults !== null) {
      if (prepare === null) return;
      const value = faultPackage(prepare).image?.prepare ?? {};
      const outcome = await this.sim.realFaults.apply({ f: prepare.f as FaultKind, value });
      this.sim.realActions.push({ f: `${prepare.f} (prepare)`, outcome: outcome.kind === 'applied' ? outcome.action : `simulated-only: ${outcome.reason}` });
      return;
    }
    if (this.sim.store.snapshot === undefined) return;
    const image = await this.sim.store.snapshot();
    this.images.push({ time: this.sim.now, image, shadow: this.sim.shadow.image() });
  }

  /**
   * Failover to a lagging replica, or restore from an older backup: the store's durable state is
   * replaced by the image from `ageMs` ago. Connections break (in-flight replies are lost). With the
   * mitigation on, the recovery epoch advances past every token issued before (§273–§274) and the
   * protected scopes stay blocked until reconciled (§275).
   */
  private async replaceImage(f: 'db-failover' | 'db-restore', ageMs: number, extra: Record<string, unknown>): Promise<void> {
    const blocked = this.sim.plan.recoveryEpoch ? this.sim.plan.protectedScopes : [];
    if (this.sim.realFaults !== null) {
      // The real driver promotes the lagging replica or restores the older data directory itself:
      // which commands the replaced state still holds is not known, so the shadow model stops here.
      this.sim.shadow.stop(`${f} replaced the durable state outside the store port`);
      await this.record(f, { ...extra, recoveryEpoch: this.sim.plan.recoveryEpoch, blockedScopes: [...blocked] });
    } else {
      const target = this.sim.now - ageMs;
      let chosen: (typeof this.images)[number] | undefined;
      for (const entry of this.images) if (entry.time <= target) chosen = entry;
      if (chosen === undefined) chosen = this.images[0];
      if (chosen === undefined || this.sim.store.restore === undefined) {
        // Nothing was replaced: the store cannot take or restore images. Checkers ignore a skipped fault.
        await this.record(f, { ...extra, skipped: true, reason: 'the store has no snapshot()/restore()', blockedScopes: [] });
        return;
      }
      await this.sim.store.restore(chosen.image);
      this.sim.shadow.restore(chosen.shadow);
      await this.record(f, { ...extra, imageTime: chosen.time, recoveryEpoch: this.sim.plan.recoveryEpoch, blockedScopes: [...blocked] });
    }
    this.sim.dbConn++;
    await this.refenceRoles();
    if (!this.sim.plan.recoveryEpoch) return;
    this.sim.recoveryGeneration++;
    await this.atDatabaseHost({ kind: 'AdvanceRecoveryEpoch', atLeast: this.sim.recoveryGeneration, blockScopes: [...blocked] }, `recovery#${this.sim.recoveryGeneration}`);
    this.afterRecoveryEpoch(blocked);
  }

  /**
   * The replaced image may hold older role epochs than the coordination layer has committed: the
   * recovery procedure writes the committed ones back before the database takes connections, so a
   * deposed leader's guard is fenced as it was before (seed 001 §93, §96).
   */
  private async refenceRoles(): Promise<void> {
    const picture = this.sim.coordination?.picture();
    if (picture === undefined) return;
    for (const { role, epoch } of picture.roles) await this.atDatabaseHost({ kind: 'AdvanceRoleEpoch', role, epoch }, `recovery-roles#${this.sim.dbConn}`);
  }

  /** A step of the recovery procedure, run on the database host before it accepts connections again, recorded as an operation of `process`. */
  private async atDatabaseHost(command: Command, process: string): Promise<void> {
    this.sim.history.op(this.sim.now, process, 'invoke', command.kind, command);
    const outcome = await this.sim.executeDirect(command, process);
    this.sim.history.op(this.sim.now, process, 'ok', command.kind, outcome);
  }

  /** Every cut site comes back and learns who holds each domain (the network heal above restored its links). */
  private async healSites(): Promise<void> {
    const federation = this.sim.federation;
    if (federation === null) return;
    for (const site of federation.cutSites()) await this.record('site-heal', { site, learned: [...(federation.healSite(site) ?? [])] });
  }

  async startLiveness(): Promise<void> {
    this.sim.faultsOn = false;
    this.sim.network.healAll();
    this.sim.provider.heal();
    for (const node of this.sim.nodes.values()) if (node.pausedUntil > this.sim.now) node.pausedUntil = this.sim.now;
    await this.healSites();
    await this.record('liveness-phase', { boundMs: this.sim.plan.livenessBoundMs });
  }

}
