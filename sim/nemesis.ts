// The nemesis (Jepsen): applies the plan's faults to the simulated world and records each one in
// the history — partitions and their healing, message loss, pauses, controller crashes, clock
// skew, database crash, failover to a lagging replica and restore from an older backup (with the
// recovery-epoch mitigation, §272–§276), and the liveness phase that heals everything. With real
// faults, each one is also applied for real while simulated time stands still.

import type { StoreImage } from '../adapters/port.ts';
import type { FaultKind } from '../model/history.ts';
import type { ModelState } from '../model/state.ts';
import type { NemesisHost } from './nemesis-host.ts';
import type { Node } from './sim-node.ts';
import type { CoordinationFault } from './coordination/faults.ts';

export class Nemesis {
  /** Replica/backup images, taken at a fixed cadence when the plan has failover or restore. */
  private readonly images: Array<{ time: number; image: StoreImage; shadow: ModelState }> = [];

  constructor(
    private readonly sim: NemesisHost,
    /** The recovery epoch advanced: these scopes wait for the recovery procedure. */
    private readonly afterRecoveryEpoch: (scopes: ReadonlyArray<string>) => void,
  ) {}

  /** Records a fault in the history and, with real faults, applies it for real. */
  async record(f: FaultKind, value: Readonly<Record<string, unknown>>): Promise<void> {
    this.sim.fault(f, value);
    if (this.sim.realFaults === null) return;
    const outcome = await this.sim.realFaults.apply({ f, value });
    this.sim.realActions.push({ f, outcome: outcome.kind === 'applied' ? outcome.action : `simulated-only: ${outcome.reason}` });
  }

  async apply(fault: Record<string, unknown> & { f: string }): Promise<void> {
    if (!this.sim.faultsOn && fault.f !== 'clock-skew') return;
    switch (fault.f) {
      case 'partition': {
        const from = fault.from as string;
        const to = fault.to as string;
        this.sim.network.block(from, to);
        if (fault.oneWay !== true) this.sim.network.block(to, from);
        await this.record('partition', { from, to, oneWay: fault.oneWay === true, durationMs: fault.durationMs as number });
        this.sim.scheduleFaultEnd(this.sim.now + Math.max(1, fault.durationMs as number), fault);
        return;
      }
      case 'message-loss':
        this.sim.network.extraLossPct = Math.min(100, this.sim.network.extraLossPct + (fault.pct as number));
        await this.record('message-loss', { pct: fault.pct as number, durationMs: fault.durationMs as number });
        this.sim.scheduleFaultEnd(this.sim.now + Math.max(1, fault.durationMs as number), fault);
        return;
      case 'pause': {
        const node = this.controllerNode(fault.node as string);
        if (node === undefined || node.down) return;
        node.pausedUntil = Math.max(node.pausedUntil, this.sim.now + (fault.durationMs as number));
        await this.record('pause', { node: node.name, process: node.proc, durationMs: fault.durationMs as number });
        this.sim.scheduleFaultEnd(node.pausedUntil, fault);
        return;
      }
      case 'crash': {
        const node = this.controllerNode(fault.node as string);
        if (node === undefined || node.down) return;
        await this.record('crash', { node: node.name, process: node.proc });
        this.sim.retire(node, 'crash', fault.downMs as number);
        return;
      }
      case 'clock-skew': {
        const node = this.controllerNode(fault.node as string);
        if (node === undefined) return;
        node.clock.skew(this.sim.now, fault.offsetMs as number, fault.driftPpm as number);
        await this.record('clock-skew', { node: node.name, offsetMs: node.clock.offsetMs, driftPpm: node.clock.driftPpm });
        return;
      }
      case 'db-crash':
        if (this.sim.dbDown) return;
        this.sim.dbDown = true;
        this.sim.dbConn++;
        await this.record('db-crash', { downMs: fault.downMs as number });
        this.sim.scheduleFaultEnd(this.sim.now + Math.max(1, fault.downMs as number), fault);
        return;
      case 'db-failover':
        await this.replaceImage('db-failover', fault.lagMs as number, { lagMs: fault.lagMs as number });
        return;
      case 'db-restore':
        await this.replaceImage('db-restore', fault.snapshotAgeMs as number, { snapshotAgeMs: fault.snapshotAgeMs as number });
        return;
      case 'provider-timeout':
        this.sim.provider.scriptTimeouts(fault.count as number, fault.appliedPct as number);
        return;
      case 'leader-crash':
      case 'leader-pause':
      case 'leader-isolate':
      case 'quorum-split':
      case 'member-add':
      case 'member-promote':
      case 'member-remove':
        this.sim.coordination?.applyFault(fault as unknown as CoordinationFault);
        return;
    }
  }

  async end(fault: Record<string, unknown> & { f: string }): Promise<void> {
    switch (fault.f) {
      case 'partition':
        this.sim.network.unblock(fault.from as string, fault.to as string);
        if (fault.oneWay !== true) this.sim.network.unblock(fault.to as string, fault.from as string);
        await this.record('heal', { from: fault.from as string, to: fault.to as string });
        return;
      case 'message-loss':
        this.sim.network.extraLossPct = Math.max(0, this.sim.network.extraLossPct - (fault.pct as number));
        return;
      case 'pause': {
        const node = this.controllerNode(fault.node as string);
        if (node !== undefined && node.pausedUntil <= this.sim.now) await this.record('resume', { node: node.name, process: node.proc });
        return;
      }
      case 'db-crash':
        if (!this.sim.dbDown) return;
        this.sim.dbDown = false;
        await this.record('db-restart', {});
        return;
    }
  }

  private controllerNode(name: string): Node | undefined {
    return this.sim.nodes.get(name);
  }

  /**
   * Simulated: takes a replica/backup image at the cadence. Real: prepares the fault `prepare`
   * ahead of time — cuts the replication link before a failover, takes the data-directory copy
   * before a restore — without recording anything in the history.
   */
  async takeSnapshot(prepare: (Record<string, unknown> & { f: string }) | null): Promise<void> {
    if (this.sim.realFaults !== null) {
      if (prepare === null) return;
      const value = prepare.f === 'db-failover' ? { phase: 'cut' } : { phase: 'backup' };
      const outcome = await this.sim.realFaults.apply({ f: prepare.f as 'db-failover' | 'db-restore', value });
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
    if (!this.sim.plan.recoveryEpoch) return;
    this.sim.recoveryGeneration++;
    const command = { kind: 'AdvanceRecoveryEpoch' as const, atLeast: this.sim.recoveryGeneration, blockScopes: [...blocked] };
    const process = `recovery#${this.sim.recoveryGeneration}`;
    // The recovery procedure runs on the database host before it accepts connections again.
    this.sim.history.op(this.sim.now, process, 'invoke', command.kind, command);
    const outcome = await this.sim.executeDirect(command, process);
    this.sim.history.op(this.sim.now, process, 'ok', command.kind, outcome);
    this.afterRecoveryEpoch(blocked);
  }

  async startLiveness(): Promise<void> {
    this.sim.faultsOn = false;
    this.sim.network.healAll();
    this.sim.provider.heal();
    for (const node of this.sim.nodes.values()) if (node.pausedUntil > this.sim.now) node.pausedUntil = this.sim.now;
    await this.record('liveness-phase', { boundMs: this.sim.plan.livenessBoundMs });
  }

}
