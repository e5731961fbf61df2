// The content-addressed artifact store beside the coordination layer (seed 001 §3–§4: artifacts
// remain in normal stores and the CAS, never in Raft; §100 "Partial Connectivity to CAS:
// independent subsystem health"; §278 "CAS Lost Test: coordination unaffected; jobs depending on
// CAS fail or degrade correctly"). With
// `coordination.artifacts`, each job has an artifact, named by its digest, that its attempt fetches
// from the store before it makes the job's effect. A fetch is an operation of the attempt's
// process, `cas-fetch` `{ job, intentId, digest }`, answered `ok` with the digest it verified or
// `fail` while the store is out (the `cas-outage` fault). A correct attempt that cannot fetch gives
// its job back, and a later attempt runs it; the broken one (`effectsNeedArtifact` off) makes the
// effect without it. Bytes are not simulated, only their digest and size.

import type { Fiber, Sim } from '../engine.ts';

/** How long a fetch takes, in local ms (a round trip to the store and a digest check). */
const FETCH_MS = 5;
/** The size an artifact is said to have (what a log entry that carries one would hold). */
export const ARTIFACT_BYTES = 4 * 1024 * 1024;

/** A job's artifact digest: the content address its attempt asks for. */
export function artifactDigest(jobId: string): string {
  return `sha256:${jobId}`;
}

export class ArtifactStore {
  private downUntil = 0;

  constructor(private readonly sim: Sim) {}

  /** The store does not answer for `durationMs` (no longer than the faults last). */
  outage(durationMs: number): void {
    const until = Math.min(this.sim.now + durationMs, Math.max(this.sim.now, this.sim.plan.horizonMs));
    this.downUntil = Math.max(this.downUntil, until);
    this.sim.fault('cas-outage', { durationMs: this.downUntil - this.sim.now });
  }

  /** Fetches the job's artifact for `intentId`'s effect; false when the store did not answer. */
  async fetch(fiber: Fiber, jobId: string, intentId: string): Promise<boolean> {
    const process = fiber.process;
    const digest = artifactDigest(jobId);
    this.sim.history.op(this.sim.now, process, 'invoke', 'cas-fetch', { job: jobId, intentId, digest });
    await this.sim.sleepLocal(fiber, FETCH_MS);
    const ok = this.sim.now >= this.downUntil;
    this.sim.history.op(this.sim.now, process, ok ? 'ok' : 'fail', 'cas-fetch', ok ? { digest } : { reason: 'unavailable' });
    return ok;
  }
}
