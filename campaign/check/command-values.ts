// The values a command's fields are drawn from. Narrow: the literals of a world (world.ts) and a
// few small numbers, as step formats 1 and 2 draw them, arbitrary for arbitrary, so that their
// paths still walk the same choices. Wide (step format 3): the same, and now and then a value
// from the field's whole domain (domains.ts): an edge of its rule or of a machine representation,
// white space of every kind, a long or odd string. The world's literals stay the common case, so
// that commands still collide on a scope, a holder or a key as often as before.

import fc from 'fast-check';
import type { StoredOutcome } from '../../model/idempotency-outcome.ts';
import {
  CAPACITY_EDGES, EPOCH_EDGES, ID_EDGES, PRIORITY_EDGES, REASON_EDGES, RECOVERY_FLOORS, RETENTION_EDGES, TOKEN_EDGES, TTL_EDGES, UNITS_EDGES, VERSION_EDGES,
} from './domains.ts';
import { BAD_TOKENS, BAD_TTLS, LITERAL_TOKENS, LIVE_DIGEST, LIVE_HOLDER, LIVE_ID, LIVE_KEY, LIVE_TOKEN, LIVE_VERSION, RETENTIONS, ROLES, TTLS, type World } from './world.ts';

export interface KeyFields {
  readonly tenant: string;
  readonly operation: string;
  readonly subject: string;
  readonly key: string;
  readonly digest: string;
}

/** One arbitrary per kind of field of the port's commands. */
export interface Values {
  readonly scope: fc.Arbitrary<string>;
  readonly capacityScope: fc.Arbitrary<string>;
  readonly scopes: fc.Arbitrary<string[]>;
  readonly holder: fc.Arbitrary<string>;
  /** The live lease's holder (LIVE_HOLDER) mostly, or any holder. */
  readonly tokenHolder: fc.Arbitrary<string>;
  readonly id: fc.Arbitrary<string>;
  /** An id of the state (LIVE_ID) mostly, or a literal one. */
  readonly liveId: fc.Arbitrary<string>;
  readonly ttl: fc.Arbitrary<number>;
  readonly token: fc.Arbitrary<number>;
  /** A job command's token: its job's current attempt (LIVE_TOKEN) most of the time. */
  readonly attemptToken: fc.Arbitrary<number>;
  readonly role: fc.Arbitrary<string>;
  readonly epoch: fc.Arbitrary<number>;
  readonly keyRef: fc.Arbitrary<KeyFields>;
  readonly stored: fc.Arbitrary<StoredOutcome>;
  readonly actor: fc.Arbitrary<string>;
  readonly reason: fc.Arbitrary<string>;
  readonly priority: fc.Arbitrary<number>;
  readonly aggregate: fc.Arbitrary<string>;
  readonly expectedVersion: fc.Arbitrary<number>;
  readonly capacity: fc.Arbitrary<number>;
  readonly permitUnits: fc.Arbitrary<number>;
  readonly reserveUnits: fc.Arbitrary<number>;
  readonly retention: fc.Arbitrary<number>;
  readonly operation: fc.Arbitrary<string>;
  readonly atLeast: fc.Arbitrary<number>;
}

/** The narrow values over `world`: over the small world, exactly those of step formats 1 and 2. */
export function narrowValues(world: World): Values {
  const scope = fc.constantFrom(...world.leaseScopes);
  const holder = fc.constantFrom(...world.holders);
  const id = fc.constantFrom(...world.ids);
  return {
    scope,
    // Capacity commands mostly hit the capacity scope, sometimes a lease scope with no capacity.
    capacityScope: fc.oneof({ weight: 5, arbitrary: fc.constant(world.capacityScope) }, { weight: 1, arbitrary: scope }),
    scopes: fc.subarray([...world.leaseScopes]),
    holder,
    tokenHolder: fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_HOLDER) }, { weight: 1, arbitrary: holder }),
    id,
    liveId: fc.oneof({ weight: 2, arbitrary: fc.constant(LIVE_ID) }, { weight: 1, arbitrary: id }),
    ttl: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...TTLS) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_TTLS) }),
    token: tokens(6),
    attemptToken: tokens(12),
    role: fc.constantFrom(...ROLES),
    epoch: fc.integer({ min: -1, max: 3 }),
    keyRef: fc.record({
      tenant: fc.constantFrom(...world.tenants),
      operation: fc.constant('publish'),
      subject: fc.constantFrom(...world.subjects),
      // Half the time the key of a record that exists: its next Begin or Complete meets that record.
      key: fc.constantFrom(...world.keys, LIVE_KEY),
      digest: fc.constantFrom('d1', 'd2', LIVE_DIGEST),
    }),
    stored: storedOutcomes(fc.constantFrom('ok', 'other'), fc.constant('no')),
    actor: fc.constant('ops'),
    reason: fc.constantFrom('stuck', '', ' '),
    priority: fc.integer({ min: -2, max: 2 }),
    aggregate: fc.constantFrom(...world.aggregates),
    expectedVersion: fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_VERSION) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) }),
    capacity: fc.integer({ min: -1, max: 3 }),
    permitUnits: fc.integer({ min: 0, max: 3 }),
    reserveUnits: fc.integer({ min: 0, max: 2 }),
    retention: fc.constantFrom(...RETENTIONS),
    operation: fc.constant('rollout'),
    atLeast: fc.integer({ min: 0, max: 2 }),
  };
}

function tokens(liveWeight: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: liveWeight, arbitrary: fc.constant(LIVE_TOKEN) },
    { weight: 3, arbitrary: fc.constantFrom(...LITERAL_TOKENS) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_TOKENS) },
  );
}

function storedOutcomes(response: fc.Arbitrary<string>, error: fc.Arbitrary<string>): fc.Arbitrary<StoredOutcome> {
  return fc.oneof(
    fc.record({ kind: fc.constant('Succeeded' as const), response }),
    fc.record({ kind: fc.constant('FailedTerminal' as const), error }),
    fc.constant({ kind: 'Unknown' as const }),
  );
}

/** `narrow` most of the time; one draw in `1 + weight` an edge of the field's domain (or a draw of `wide`). */
function widen<T>(narrow: fc.Arbitrary<T>, edges: ReadonlyArray<T>, weight = 7, wide: fc.Arbitrary<T> = fc.constantFrom(...edges)): fc.Arbitrary<T> {
  return fc.oneof({ weight, arbitrary: narrow }, { weight: 1, arbitrary: wide });
}

/** An idempotency key whose every field is the world's or, one time in two, an edge of the id domain. */
function wideKey(world: World): fc.Arbitrary<KeyFields> {
  return fc.record({
    tenant: widen(fc.constantFrom(...world.tenants), ID_EDGES, 1),
    operation: widen(fc.constant('publish'), ID_EDGES, 1),
    subject: widen(fc.constantFrom(...world.subjects), ID_EDGES, 1),
    key: widen(fc.constantFrom(...world.keys, LIVE_KEY), ID_EDGES, 1),
    digest: widen(fc.constantFrom('d1', 'd2', LIVE_DIGEST), ID_EDGES, 1),
  });
}

/** The wide values over `world` (step format 3): each field now and then at an edge of its whole domain. */
export function wideValues(world: World): Values {
  const narrow = narrowValues(world);
  const scope = widen(narrow.scope, ID_EDGES, 11);
  const holder = widen(narrow.holder, ID_EDGES);
  const id = widen(narrow.id, ID_EDGES);
  return {
    ...narrow,
    scope,
    capacityScope: fc.oneof({ weight: 5, arbitrary: fc.constant(world.capacityScope) }, { weight: 1, arbitrary: scope }),
    scopes: fc.oneof({ weight: 7, arbitrary: narrow.scopes }, { weight: 1, arbitrary: fc.array(scope, { maxLength: 4 }) }),
    holder,
    tokenHolder: fc.oneof({ weight: 3, arbitrary: fc.constant(LIVE_HOLDER) }, { weight: 1, arbitrary: holder }),
    id,
    liveId: fc.oneof({ weight: 2, arbitrary: fc.constant(LIVE_ID) }, { weight: 1, arbitrary: id }),
    ttl: widen(narrow.ttl, TTL_EDGES, 5),
    token: widen(narrow.token, TOKEN_EDGES),
    attemptToken: widen(narrow.attemptToken, TOKEN_EDGES, 15),
    role: widen(narrow.role, ID_EDGES),
    epoch: widen(narrow.epoch, EPOCH_EDGES),
    // A key is wide as a whole, now and then, so that most Begins and Completes still meet a record.
    keyRef: widen(narrow.keyRef, [], 7, wideKey(world)),
    stored: widen(narrow.stored, [], 7, storedOutcomes(widen(fc.constantFrom('ok', 'other'), ID_EDGES, 1), widen(fc.constant('no'), ID_EDGES, 1))),
    actor: widen(narrow.actor, ID_EDGES),
    reason: widen(narrow.reason, REASON_EDGES, 3),
    priority: widen(narrow.priority, PRIORITY_EDGES, 5),
    aggregate: widen(narrow.aggregate, ID_EDGES),
    expectedVersion: widen(narrow.expectedVersion, VERSION_EDGES),
    capacity: widen(narrow.capacity, CAPACITY_EDGES, 5),
    permitUnits: widen(narrow.permitUnits, UNITS_EDGES, 5),
    reserveUnits: widen(narrow.reserveUnits, UNITS_EDGES, 5),
    retention: widen(narrow.retention, RETENTION_EDGES, 5),
    operation: widen(narrow.operation, ID_EDGES),
    atLeast: widen(narrow.atLeast, RECOVERY_FLOORS, 11),
  };
}
