// Fences that are not integers (capabilities.fencing, adapters/port.ts). The simulator, the history
// and the checkers speak of a lease's fence as an integer; a store whose fence is opaque (a job id
// and attempt, a version string) or that has none is put behind this translation for the run:
//
// - 'opaque': each distinct fence the store answers is given the next integer, in the order the
//   store first shows it, and the store is sent its own fence back wherever a command carries a
//   token. Integers are issued in the store's own order, so "granted before" still reads as
//   "lower"; what the store's fences do not have is an order of their own, so the checkers judge
//   no order of them (model/checkers/fencing-monotonic.ts judges only reuse).
// - 'none': the store answers no fence and is sent none it could check (it gets the integers and
//   may ignore them). Each grant is given a new integer. An answer about a holder's lease (Busy,
//   Renewed, Released, Accepted, a tombstone, an Inspect view's leases, a lifecycle answer) names
//   the last grant to that holder on the scope that the store's answers showed: without a fence the
//   store can have acted on no other. One about the current lease of a scope (Stale, StaleFence)
//   names the last grant there; an intent keeps the grant it was planned under.
//
// A value that is not a fence (an object, a boolean, an empty string or one longer than 500
// characters) is passed on untouched, for the port contract to report (sim/port-contract.ts).
// The translation is a function of the store's answers alone, so a deterministic store stays
// deterministic.

import type { Command, CommandKind } from '../model/commands.ts';
import type { InterleavedStores } from '../adapters/interleaving.ts';
import type { LifecycleEvent, Store, StoreCapabilities } from '../adapters/port.ts';
import { isSyncStore } from '../adapters/port.ts';

export type FencingKind = NonNullable<StoreCapabilities['fencing']>;

/** Fields of an outcome that hold a fence; of a command, those that carry one back. */
export const OUTCOME_FENCES: ReadonlySet<string> = new Set(['token', 'currentToken', 'lastToken']);
export const COMMAND_FENCES = ['token', 'expectedToken'] as const;
/** Commands whose answer's lease is a new grant (a Renewed lease restates the command's). */
const GRANTING: ReadonlySet<CommandKind> = new Set<CommandKind>(['Acquire', 'AcquireAll', 'Handoff']);

type Json = Record<string, unknown>;

export function fencingOf(store: Store): FencingKind {
  return store.capabilities?.fencing ?? 'integer';
}

/** The translation a store needs for the run (null: its fences are integers). */
export function fenceIdsFor(store: Store): FenceIds | null {
  const kind = fencingOf(store);
  if (kind === 'integer') return null;
  if (kind === 'opaque') return new OpaqueFences();
  if (kind === 'none') return new AbsentFences();
  throw new Error(`store ${store.name} declares capabilities.fencing ${JSON.stringify(kind)}: expected 'integer', 'opaque' or 'none'`);
}

/** `store` as the simulator sees it, behind `ids`. */
export function withFenceIds(store: Store, ids: FenceIds): Store {
  const wrapped: Store = {
    name: store.name,
    ...(store.capabilities === undefined ? {} : { capabilities: store.capabilities }),
    execute: async (command, call) => ids.answer(command, await store.execute(ids.command(command), call)) as never,
    close: () => store.close(),
    ...(store.snapshot === undefined ? {} : { snapshot: () => store.snapshot!() }),
    ...(store.restore === undefined ? {} : { restore: (image) => store.restore!(image) }),
    ...(store.lifecycle === undefined ? {} : { lifecycle: async (event: LifecycleEvent) => ids.lifecycle(await store.lifecycle!(event)) }),
  };
  if (!isSyncStore(store)) return wrapped;
  return Object.assign(wrapped, { executeSync: (command: Command) => ids.answer(command, store.executeSync(ids.command(command))) as never });
}

/** Interleaved sessions behind `ids`: commands go out with the store's fences, answers come back in the order they settled. */
export function withFenceIdsInterleaved(stores: InterleavedStores, ids: FenceIds): InterleavedStores {
  return {
    main: withFenceIds(stores.main, ids),
    passingTime: stores.passingTime,
    runBatch: async (calls, choose, end) => {
      const result = await stores.runBatch(calls.map((c) => ({ ...c, command: ids.command(c.command) })), choose, end);
      const settled = result.settled.map((s) =>
        s.result.status === 'fulfilled' ? { ...s, result: { status: 'fulfilled' as const, value: ids.answer(calls[s.call]!.command, s.result.value) } } : s,
      );
      return { ...result, settled };
    },
    close: () => stores.close(),
  };
}

export interface FenceIds {
  command<C extends Command>(command: C): C;
  answer(command: Command, outcome: unknown): unknown;
  lifecycle(answer: unknown): never;
  /** The store's own fence that `id` stands for (undefined: none it showed), for a report to name it. */
  fence(id: number): unknown;
}

function isFence(value: unknown): value is string | number {
  return (typeof value === 'string' && value.length > 0 && value.length <= 500) || (typeof value === 'number' && Number.isFinite(value));
}

/** Copies `value` with every field named in `fields` replaced by `replace(value, key, parent)`. */
function mapFields(value: unknown, fields: ReadonlySet<string>, replace: (fence: unknown, key: string, parent: Json) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapFields(item, fields, replace));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value as Json)) out[key] = fields.has(key) ? replace(field, key, value as Json) : mapFields(field, fields, replace);
  return out;
}

class OpaqueFences implements FenceIds {
  private readonly ids = new Map<string, number>();
  private readonly fences = new Map<number, unknown>();

  private id(fence: unknown): unknown {
    if (!isFence(fence)) return fence;
    const key = JSON.stringify(fence);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(key, id);
      this.fences.set(id, fence);
    }
    return id;
  }

  command<C extends Command>(command: C): C {
    const out: Json = { ...command };
    for (const field of COMMAND_FENCES) {
      const id = out[field];
      if (typeof id === 'number' && this.fences.has(id)) out[field] = this.fences.get(id);
    }
    return out as C;
  }

  answer(_command: Command, outcome: unknown): unknown {
    const translated = mapFields(outcome, OUTCOME_FENCES, (fence) => (fence === null ? null : this.id(fence)));
    return withoutNextToken(translated);
  }

  lifecycle(answer: unknown): never {
    return mapFields(answer, OUTCOME_FENCES, (fence) => this.id(fence)) as never;
  }

  fence(id: number): unknown {
    return this.fences.get(id);
  }
}

class AbsentFences implements FenceIds {
  private issued = 0;
  /** The id of the last grant each scope's answers showed. */
  private readonly current = new Map<string, number>();
  /** Each (scope, holder)'s latest id, for a Busy answer that names a holder of a grant not seen. */
  private readonly byHolder = new Map<string, number>();

  private grant(scope: string, holder: string): number {
    const token = ++this.issued;
    this.current.set(scope, token);
    this.byHolder.set(`${scope}\u0000${holder}`, token);
    return token;
  }

  private holding(scope: string, holder: string): number {
    return this.byHolder.get(`${scope}\u0000${holder}`) ?? this.grant(scope, holder);
  }

  command<C extends Command>(command: C): C {
    return command;
  }

  answer(command: Command, outcome: unknown): unknown {
    const translated = mapFields(withFenceFields(command.kind, outcome), OUTCOME_FENCES, (_fence, key, parent) => {
      // An intent keeps the id of the grant it was planned under.
      const intentId = typeof parent.intentId === 'string' ? parent.intentId : null;
      const known = intentId === null ? undefined : this.intents.get(intentId);
      if (known !== undefined) return known;
      const id = this.idFor(command, key, parent);
      if (intentId !== null && typeof id === 'number') this.intents.set(intentId, id);
      return id;
    });
    return withoutNextToken(translated);
  }

  /** Planned intents, by id: the grant each was planned under. */
  private readonly intents = new Map<string, number>();

  private idFor(command: Command, key: string, parent: Json): number | null {
    const sent = command as unknown as Json;
    const scope = String(parent.scope ?? sent.scope ?? '');
    if (key === 'currentToken' || key === 'lastToken') return this.current.get(scope) ?? null;
    if (typeof parent.holder === 'string' && GRANTING.has(command.kind) && 'expiresAt' in parent && 'acquiredAt' in parent) return this.grant(scope, parent.holder);
    // Without a fence the store can only have acted on the lease the holder has now.
    const holder = typeof parent.holder === 'string' ? parent.holder : typeof sent.holder === 'string' ? sent.holder : null;
    if (holder !== null) return this.holding(scope, holder);
    const carried = sent.token ?? sent.expectedToken;
    return typeof carried === 'number' ? carried : (this.current.get(scope) ?? null);
  }

  lifecycle(answer: unknown): never {
    return mapFields(addFences(answer, ''), OUTCOME_FENCES, (_fence, _key, parent) => this.holding(String(parent.scope), String(parent.holder))) as never;
  }

  fence(): undefined {
    return undefined;
  }
}

/** Where the port has a fence and a store without fences left it out, an empty one, to be given an id. */
function withFenceFields(kind: CommandKind, outcome: unknown): unknown {
  if (typeof outcome !== 'object' || outcome === null) return outcome;
  const out: Json = { ...(outcome as Json) };
  const top = out.kind === 'Busy' && (kind === 'Acquire' || kind === 'AcquireAll') ? 'token' : TOP_FENCE[String(out.kind)];
  if (top !== undefined && !(top in out)) out[top] = null;
  return addFences(out, '');
}

/** Objects that carry a fence in the port, by the field that holds them (an Inspect view's lists included), and the fence's name. */
const FENCED_OBJECTS: Readonly<Record<string, string>> = { lease: 'token', leases: 'token', tombstone: 'token', tombstones: 'token', intent: 'token', intents: 'token', ended: 'token', tokens: 'lastToken', aggregates: 'lastToken' };

/** `value` with an empty fence wherever the port has one and the store left it out, at any depth. */
function addFences(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((item) => addFences(item, key));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [field, item] of Object.entries(value as Json)) out[field] = addFences(item, field);
  const fence = FENCED_OBJECTS[key];
  if (fence !== undefined && !(fence in out)) out[fence] = null;
  return out;
}

const TOP_FENCE: Readonly<Record<string, string>> = { Released: 'token', Accepted: 'token', Stale: 'currentToken', StaleFence: 'currentToken' };

/** A ForceReleased `nextToken` is a promise about integer fences; without them it says nothing, and is 0. */
function withoutNextToken(outcome: unknown): unknown {
  if (typeof outcome !== 'object' || outcome === null || !('nextToken' in outcome)) return outcome;
  return { ...(outcome as Json), nextToken: 0 };
}
