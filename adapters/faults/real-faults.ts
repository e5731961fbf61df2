// Real faults for runs against PostgreSQL (docs/ARCHITECTURE.md "Faults"): each fault kind (the
// top-level faults/) declares, per history record, the real action it takes on this
// primary/replica pair and on the fault-proxy links between the clients and the servers, or why
// it has none (controller pause, clock skew, provider and coordination faults): such a fault is
// answered with `simulated-only` and that reason, never skipped in silence.
//
// Fault values this driver reads (the simulator's shapes, plus optional knobs for direct callers):
// - partition `{ from, to, oneWay? }` (nodes `db`, `provider`, controller ids) or `{ clients: [...] }`;
//   `mode: 'blackhole' | 'down'`, `timeoutMs`. Only a link between `db` and a declared client is real:
//   blackhole = Toxiproxy `timeout` toxic (data silently dropped; closed after timeoutMs if > 0), one
//   way or both; down = proxy disabled (live connections cut, new ones refused).
// - heal `{ from, to }` heals that partition; without them, every link.
// - message-loss `{ pct?, durationMs?, clients?, mode?: 'lost-reply' | 'lost-request' | 'delay', delayMs?, jitterMs? }`:
//   a reset_peer (or latency) toxic on each affected connection with toxicity pct/100, removed after
//   durationMs of real time (capped by `lossWindowMsMax`) or at heal.
// - crash (controller) `{ node }` (or `{ process }`): that client's database sessions are terminated.
// - db-failover `{ phase?: 'cut' | 'promote', skipped? }`: cut only the replication link, or (default)
//   cut it, promote the replica and repoint every client to it. Commits are lost for real only with
//   `replicationLagMs` > 0 or after an earlier cut; otherwise the replica catches up first.
// - db-restore `{ phase?: 'backup' | 'restore', skipped? }`: take a data dir copy now, or (default)
//   restore the latest copy (simulated-only when none was taken).

import { Toxiproxy } from 'toxiproxy-node-client';
import type { FaultKind } from '../../model/history.ts';
import { FAULT_RECORDS } from '../../faults/records.ts';
import type { RealFaultOutcome, RealTarget } from '../../faults/package.ts';
import { ClientLinks } from './client-links.ts';
import { connectFaultProxy, type FaultProxyHandle } from './proxy/connect.ts';
import { PostgresCluster, type DataDirCopy, type ServerName } from './postgres-cluster.ts';

export interface RealFault {
  readonly f: FaultKind;
  readonly value: Readonly<Record<string, unknown>>;
}

export type { RealFaultOutcome };

export interface RealFaultDriver {
  apply(fault: RealFault): Promise<RealFaultOutcome>;
  /** Where a client connects now: through its own proxy to the current primary. */
  connectionStringFor(clientId: string): string;
  close(): Promise<void>;
}

export interface RealFaultDriverOptions {
  /** Client (controller) ids; each gets its own proxy to each server, so faults can single one out. */
  readonly clients: ReadonlyArray<string>;
  /**
   * Delay on the replication link from the start: the window of commits a failover loses. With 0
   * (the default) a failover first lets the replica catch up and loses nothing.
   */
  readonly replicationLagMs?: number;
  /** Longest real time a message-loss toxic stays on before it is removed by itself. */
  readonly lossWindowMsMax?: number;
}

const DEFAULT_LOSS_WINDOW_MS_MAX = 1_000;
/** How long a lossless failover waits for the replica to catch up before promoting anyway. */
const CATCH_UP_MS_MAX = 5_000;

class ProxiedCluster implements RealFaultDriver, RealTarget {
  private failedOver = false;
  private replicationCut = false;
  /** Set when the primary was restored under a following replica: the replica's history is no longer the primary's. */
  private standbyDiverged = false;
  private readonly copies: DataDirCopy[] = [];

  constructor(
    private readonly faultProxy: FaultProxyHandle,
    readonly cluster: PostgresCluster,
    private readonly links: ClientLinks,
    private readonly replicationLagMs: number,
  ) {}

  /** The server that is the primary now. */
  private get current(): ServerName {
    return this.links.primary;
  }

  connectionStringFor(clientId: string): string {
    return this.links.connectionStringFor(clientId);
  }

  /** The real action the fault record's kind declares (faults/records.ts), or the reason it has none. */
  async apply(fault: RealFault): Promise<RealFaultOutcome> {
    const real = FAULT_RECORDS[fault.f].real;
    if ('simulatedOnly' in real) return { kind: 'simulated-only', reason: real.simulatedOnly };
    return real(this, fault.value);
  }

  partition(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome> {
    return this.links.partition(value);
  }

  heal(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome> {
    return this.links.heal(value);
  }

  messageLoss(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome> {
    return this.links.messageLoss(value);
  }

  async crashPrimary(): Promise<RealFaultOutcome> {
    await this.cluster.crash(this.current);
    return { kind: 'applied', action: `pg_ctl stop -m immediate on ${this.current}` };
  }

  async restartPrimary(): Promise<RealFaultOutcome> {
    await this.cluster.restart(this.current);
    return { kind: 'applied', action: `pg_ctl start on ${this.current} (crash recovery)` };
  }

  async healEverything(): Promise<RealFaultOutcome> {
    const healed = await this.links.healAll();
    if (!this.cluster.isRunning(this.current)) await this.cluster.restart(this.current);
    return { kind: 'applied', action: `${healed}; ${this.current} running` };
  }

  async killSessions(value: Readonly<Record<string, unknown>>): Promise<RealFaultOutcome> {
    const clientId = value['node'] ?? value['process'];
    if (typeof clientId !== 'string' || !this.links.has(clientId)) {
      return { kind: 'simulated-only', reason: `controller ${String(clientId)} has no database sessions in this run` };
    }
    const killed = await this.cluster.killBackends(this.current, { applicationName: clientId });
    return { kind: 'applied', action: `pg_terminate_backend on ${killed} session(s) of ${clientId} on ${this.current}` };
  }

  async failover(cutOnly: boolean): Promise<RealFaultOutcome> {
    if (this.failedOver) return { kind: 'simulated-only', reason: 'no standby left: this cluster has already failed over once' };
    if (this.standbyDiverged) return { kind: 'simulated-only', reason: 'the standby is ahead of the restored primary; promoting it would undo the restore' };
    // Without a configured lag the failover loses nothing: the simulator has already modelled the
    // lag window in its own image, so the replica is first let catch up. With a lag (or a link
    // cut earlier) the commits still in flight are lost for real.
    const caughtUp = !cutOnly && !this.replicationCut && this.replicationLagMs === 0
      ? await this.cluster.waitForReplicaCatchUp(CATCH_UP_MS_MAX)
      : undefined;
    await this.cutReplication();
    if (cutOnly) return { kind: 'applied', action: 'replication link cut (primary keeps committing, replica falls behind)' };
    const { durationMs } = await this.cluster.promote('replica');
    // Clients can no longer reach the old primary: their sessions there are cut and they reconnect to the replica.
    await this.links.repoint('replica');
    this.failedOver = true;
    const lag = caughtUp === undefined ? 'commits in the lag window lost' : caughtUp ? 'replica caught up first' : `replica not caught up within ${CATCH_UP_MS_MAX} ms`;
    return { kind: 'applied', action: `replication cut (${lag}), replica promoted in ${Math.round(durationMs)} ms, clients repointed to the replica` };
  }

  async restore(backupOnly: boolean): Promise<RealFaultOutcome> {
    if (backupOnly) {
      this.copies.push(await this.cluster.takeDataDirCopy(this.current));
      return { kind: 'applied', action: `data dir copy of ${this.current} taken (checkpoint, clean stop, copy, start)` };
    }
    const copy = this.copies.at(-1);
    if (copy === undefined) {
      return { kind: 'simulated-only', reason: 'no data dir copy was taken earlier in this run (db-restore { phase: "backup" } takes one)' };
    }
    if (copy.server !== this.current) {
      return { kind: 'simulated-only', reason: `the latest copy is of the ${copy.server}, which is no longer the primary` };
    }
    if (!this.failedOver) {
      // The replica holds WAL the restored primary never wrote; stop it from streaming a different history.
      await this.cutReplication();
      this.standbyDiverged = true;
    }
    await this.cluster.restoreFrom(copy);
    return { kind: 'applied', action: `${this.current} restored from ${copy.dir}` };
  }

  private async cutReplication(): Promise<void> {
    const link = this.cluster.replicationLink;
    await link.update({ enabled: false, listen: link.listen, upstream: link.upstream });
    this.replicationCut = true;
  }

  async close(): Promise<void> {
    // Each layer is closed even when the one above it failed: no server or proxy outlives the run.
    try {
      await this.links.close();
    } finally {
      try {
        await this.cluster.close();
      } finally {
        await this.faultProxy.close();
      }
    }
  }
}

/** Starts the fault proxy (or connects to `TOXIPROXY_URL`), the cluster and the client proxies. */
export async function startRealFaultDriver(options: RealFaultDriverOptions): Promise<RealFaultDriver & { readonly cluster: PostgresCluster }> {
  const faultProxy = await connectFaultProxy();
  let cluster: PostgresCluster | undefined;
  try {
    cluster = await PostgresCluster.start({ faultProxyUrl: faultProxy.url });
    const lagMs = options.replicationLagMs ?? 0;
    if (lagMs > 0) {
      // WAL flows from the primary (the link's upstream) to the replica: the downstream stream.
      await cluster.replicationLink.addToxic({ name: 'replication-lag', type: 'latency', stream: 'downstream', toxicity: 1, attributes: { latency: lagMs, jitter: 0 } });
    }
    const servers = cluster;
    const links = await ClientLinks.create(
      new Toxiproxy(faultProxy.url),
      options.clients,
      (server) => servers.server(server).port,
      options.lossWindowMsMax ?? DEFAULT_LOSS_WINDOW_MS_MAX,
    );
    return new ProxiedCluster(faultProxy, cluster, links, lagMs);
  } catch (error) {
    await cluster?.close();
    await faultProxy.close();
    throw error;
  }
}
