// The external provider (seed 000 §28–§29, §59–§65, §191–§197): operations declare their retry
// safety; where an operation supports an expected version it fences by the highest token seen;
// a ProviderIdempotent operation dedupes by intent id; a timeout loses the reply whether or not
// the effect happened. Every effect it actually applies is recorded as ground truth.

import type { HistoryRecorder } from './history-recorder.ts';
import { hashString, mix32, unitOf } from './prng.ts';

/** Draw slots of one provider call. */
const SLOT_TIMEOUT = 1;
const SLOT_APPLIED = 2;

export interface EffectRequest {
  readonly intentId: string;
  readonly scope: string;
  /** The caller's fencing token, recorded as ground truth; checked only when `fencing`. */
  readonly token: number | undefined;
  readonly holder: string;
  readonly operation: string;
  readonly retrySafety: string;
  /** The operation takes an expected token (a precondition) and the caller sent it. */
  readonly fencing: boolean;
}

export interface EffectReply {
  readonly applied: boolean;
  readonly reason?: 'stale-token' | 'duplicate';
}

export class Provider {
  /** How many times each intent was applied. */
  private readonly applied = new Map<string, number>();
  private readonly highestToken = new Map<string, number>();
  /** Calls seen per intent: a call's draws are keyed by its intent and attempt, not by arrival order. */
  private readonly calls = new Map<string, number>();
  private scriptedTimeouts: Array<{ left: number; appliedPct: number }> = [];

  constructor(
    private readonly seed: number,
    private readonly history: HistoryRecorder,
    private readonly timeoutPct: number,
    private readonly timeoutAppliedPct: number,
  ) {}

  /** The next `count` calls time out; each applies its effect with chance `appliedPct`. */
  scriptTimeouts(count: number, appliedPct: number): void {
    this.scriptedTimeouts.push({ left: count, appliedPct });
  }

  heal(): void {
    this.scriptedTimeouts = [];
  }

  /** Handles one call at time `now`; `null` means the reply is lost (a timeout). */
  call(now: number, r: EffectRequest, faultsOn: boolean, onTimeout: (applied: boolean) => void): EffectReply | null {
    let timedOut = false;
    let applyOnTimeout = false;
    const attempt = (this.calls.get(r.intentId) ?? 0) + 1;
    this.calls.set(r.intentId, attempt);
    // Keyed by (seed, intent, attempt): dropping an unrelated call does not change this one's fate.
    const key = mix32(hashString(`${this.seed}/provider/${r.intentId}`) ^ mix32(attempt));
    const chance = (slot: number, pct: number): boolean => Math.floor(unitOf(key, slot) * 100) < pct;
    if (faultsOn) {
      const scripted = this.scriptedTimeouts[0];
      if (scripted !== undefined) {
        timedOut = true;
        applyOnTimeout = chance(SLOT_APPLIED, scripted.appliedPct);
        if (--scripted.left <= 0) this.scriptedTimeouts.shift();
      } else if (this.timeoutPct > 0 && chance(SLOT_TIMEOUT, this.timeoutPct)) {
        timedOut = true;
        applyOnTimeout = chance(SLOT_APPLIED, this.timeoutAppliedPct);
      }
    }
    if (timedOut) onTimeout(applyOnTimeout);
    if (timedOut && !applyOnTimeout) return null;
    const reply = this.apply(now, r);
    return timedOut ? null : reply;
  }

  inspect(intentId: string): EffectReply {
    return { applied: this.applied.has(intentId) };
  }

  private apply(now: number, r: EffectRequest): EffectReply {
    const highest = this.highestToken.get(r.scope) ?? 0;
    if (r.fencing && r.token !== undefined && r.token < highest) return { applied: false, reason: 'stale-token' };
    if (r.retrySafety === 'ProviderIdempotent' && this.applied.has(r.intentId)) return { applied: true, reason: 'duplicate' };
    this.applied.set(r.intentId, (this.applied.get(r.intentId) ?? 0) + 1);
    if (r.token !== undefined && r.token > highest) this.highestToken.set(r.scope, r.token);
    // A tokenless effect (a permit, an API call) is ground truth without an owner to judge.
    const truth: Record<string, unknown> =
      r.token === undefined
        ? { intentId: r.intentId, scope: r.scope, holder: r.holder, operation: r.operation }
        : { intentId: r.intentId, scope: r.scope, token: r.token, holder: r.holder, operation: r.operation };
    this.history.truth(now, 'provider', 'effect-applied', truth);
    return { applied: true };
  }
}
