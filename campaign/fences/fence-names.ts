// The reference model's names for a store's opaque fences (capabilities.fencing 'opaque'), so
// that the store can be set beside the model outcome for outcome. The store is run behind the
// simulator's translation (sim/fence-ids.ts), which gives each fence it shows an integer id; this
// pairs those ids with the model's tokens, per scope, where a store answer and the model's show
// them in the same place: the first time a fence and a token meet, they name each other.
//
// Only equality is judged, never order: a fence that comes back where the model names another
// lease, or a new lease given a fence the store gave an earlier one (a reuse), leaves the two
// answers different. A token the store never showed a fence for (a literal stale or future
// token, an intent's token) is sent as a placeholder no store issued, and read back as that token
// wherever the store echoes it; it never pairs, so the fence the store later issues for a lease
// of that token still can. What cannot be judged without integer fences is marked NOT_JUDGED on
// both sides: a ForceReleased `nextToken` (a promise about integers), and a scope's last token in
// an Inspect view where the model's is one no lease showed (a burned token: the burn is not asked
// of such a store).

import type { FenceIds } from '../../sim/fence-ids.ts';
import { COMMAND_FENCES, OUTCOME_FENCES } from '../../sim/fence-ids.ts';

/** What a field that cannot be judged reads as, on both sides of a comparison. */
export const NOT_JUDGED = 'not judged';

/** Store fences the model has no token for get a number above every model token, so a checker sees a fence of their own. */
const BEYOND_MODEL_TOKENS = 2 ** 50;
const PLACEHOLDER = 'testbed-unissued-fence:';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const keyOf = (scope: string, n: number): string => `${scope}\u0000${n}`;

/** The two answers of one call made comparable, and what the comparison could not judge. */
export interface NamedAnswers {
  /** The store's answer with each fence named by the model's token for it. */
  readonly actual: unknown;
  /** The model's answer, with what cannot be judged marked so. */
  readonly expected: unknown;
  readonly notJudged: ReadonlyArray<string>;
  /** How the store reused a fence, when it gave a lease new in the model a fence it had shown for another token. */
  readonly reused: string | null;
}

interface Walk {
  /** Pair a fence and a token that meet for the first time (false: read the answer alone). */
  readonly bind: boolean;
  /** What a fence the model has no token for reads as, when not pairing. */
  readonly unpaired: (id: number) => unknown;
  readonly notJudged: Set<string>;
  reused: string | null;
}

export class FenceNames {
  private constructor(
    private readonly ids: FenceIds,
    /** Placeholders sent so far, by their text: the scope and model token each stands for. Shared by every copy. */
    private readonly placeholders: Map<string, { readonly scope: string; readonly token: number }>,
    private readonly idByToken: Map<string, number>,
    private readonly tokenById: Map<string, number>,
  ) {}

  static over(ids: FenceIds): FenceNames {
    return new FenceNames(ids, new Map(), new Map(), new Map());
  }

  /** A copy that pairs on without changing this one (a snapshot, or one serial order of a race). */
  copy(): FenceNames {
    return new FenceNames(this.ids, this.placeholders, new Map(this.idByToken), new Map(this.tokenById));
  }

  /** The pairs, as text: two namings with the same pairs read every later answer alike. */
  key(): string {
    return [...this.idByToken].map(([k, id]) => `${k}=${id}`).sort().join(',');
  }

  /** `command` with each token the model gives it replaced by the store's fence id for it on `scope`, or by a placeholder. */
  toStore<C extends object>(command: C, scope: string | undefined): C {
    if (scope === undefined) return command;
    const out: Json = { ...(command as Json) };
    for (const field of COMMAND_FENCES) {
      const token = out[field];
      if (typeof token !== 'number') continue;
      out[field] = this.idByToken.get(keyOf(scope, token)) ?? this.placeholder(scope, token);
    }
    return out as C;
  }

  /** The store's answer (fences as ids) and the model's, paired up on `scope` (the command's, where its answer names none). */
  compare(scope: string | undefined, actual: unknown, expected: unknown): NamedAnswers {
    const walk: Walk = { bind: true, unpaired: (id) => `store fence ${this.describe(id)}`, notJudged: new Set(), reused: null };
    const [named, marked] = this.walk(actual, expected, scope, '', walk);
    return { actual: named, expected: marked, notJudged: [...walk.notJudged], reused: walk.reused };
  }

  /** The store's answer in the model's tokens, pairing nothing: a fence with no token reads as a number above every model token. */
  inModelTokens(scope: string | undefined, actual: unknown): unknown {
    return this.walk(actual, undefined, scope, '', { bind: false, unpaired: (id) => BEYOND_MODEL_TOKENS + id, notJudged: new Set(), reused: null })[0];
  }

  /** The store's answer in the model's tokens for a reader, pairing nothing: a fence with no token is named as the store's. */
  described(scope: string | undefined, actual: unknown): unknown {
    return this.walk(actual, undefined, scope, '', { bind: false, unpaired: (id) => `store fence ${this.describe(id)}`, notJudged: new Set(), reused: null })[0];
  }

  private placeholder(scope: string, token: number): string {
    const text = `${PLACEHOLDER}${token}:${scope}`;
    this.placeholders.set(text, { scope, token });
    return text;
  }

  /** The model token a placeholder of `value` stands for (it may come back translated to an id, or as itself). */
  private echoed(value: unknown): number | null {
    const fence = typeof value === 'number' ? this.ids.fence(value) : value;
    return typeof fence === 'string' ? (this.placeholders.get(fence)?.token ?? null) : null;
  }

  private walk(actual: unknown, expected: unknown, scope: string | undefined, parentKey: string, walk: Walk): [unknown, unknown] {
    if (Array.isArray(actual)) {
      const pairs = actual.map((item, i) => this.walk(item, Array.isArray(expected) ? expected[i] : undefined, scope, parentKey, walk));
      const marked = Array.isArray(expected) ? expected.map((item, i) => (i < pairs.length ? pairs[i]![1] : item)) : expected;
      return [pairs.map((p) => p[0]), marked];
    }
    if (!isObject(actual)) return [actual, expected];
    const model = isObject(expected) ? expected : undefined;
    const here = typeof actual.scope === 'string' ? actual.scope : scope;
    const named: Json = {};
    const marked: Json | undefined = model === undefined ? undefined : { ...model };
    for (const [key, value] of Object.entries(actual)) {
      const [a, e] =
        key === 'nextToken'
          ? this.unjudged(walk, 'a ForceReleased nextToken (a promise about integer fences)')
          : OUTCOME_FENCES.has(key)
            ? this.fence(value, model?.[key], here, key, parentKey, walk)
            : this.walk(value, model?.[key], here, key, walk);
      named[key] = a;
      if (marked !== undefined && key in marked) marked[key] = e;
    }
    return [named, marked ?? expected];
  }

  private unjudged(walk: Walk, what: string): [unknown, unknown] {
    walk.notJudged.add(what);
    return [NOT_JUDGED, NOT_JUDGED];
  }

  /** One fence of the store's answer, named, beside the model's token in the same place. */
  private fence(value: unknown, token: unknown, scope: string | undefined, key: string, parentKey: string, walk: Walk): [unknown, unknown] {
    if (value === null || value === undefined || scope === undefined) return [value, token];
    const echo = this.echoed(value);
    if (echo !== null) return [echo, token];
    if (typeof value !== 'number') return [value, token];
    const tokenKnown = typeof token === 'number' && this.idByToken.has(keyOf(scope, token));
    if (key === 'lastToken' && parentKey === 'tokens' && walk.bind && typeof token === 'number' && !tokenKnown) {
      return this.unjudged(walk, "a scope's last token where no lease showed it (a burned token)");
    }
    const named = this.tokenById.get(keyOf(scope, value));
    if (named !== undefined) {
      if (walk.bind && named !== token && typeof token === 'number' && !tokenKnown) {
        walk.reused ??= `scope ${scope}: the store gave ${this.describe(value)}, its fence of token ${named}, where the model issues a new token ${token}`;
      }
      return [named, token];
    }
    if (walk.bind && typeof token === 'number' && !tokenKnown) {
      this.idByToken.set(keyOf(scope, token), value);
      this.tokenById.set(keyOf(scope, value), token);
      return [token, token];
    }
    return [walk.unpaired(value), token];
  }

  private describe(id: number): string {
    return JSON.stringify(this.ids.fence(id) ?? id);
  }
}
