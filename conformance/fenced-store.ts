// A store whose fences are not integers (capabilities.fencing 'opaque' or 'none') in the
// conformance suite. The suite's expectations are written in the rule book's integer tokens, so
// the reference model runs beside the store, call for call, and the store is set beside it by its
// kind of fence (campaign/fences/model-fences.ts): the store is sent its own fences for the
// tokens a test names, and an answer that agrees with the model's, fences named by the model's
// tokens, is the model's answer in the test's words; one that does not is the store's, so named,
// and the test's expectation fails on it. What cannot be judged is never passed in silence: a
// command whose answer turned on a fence the store does not have ends the test as not judged
// there, and a test that met any other such part is reported not judged when it ends.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import { initialState, type ModelState } from '../model/state.ts';
import type { Store, StoreImage, TimeSource } from '../adapters/port.ts';
import { fenceIdsFor, fencingOf, withFenceIds, type FencingKind } from '../sim/fence-ids.ts';
import { renewalOf } from '../sim/renewal-kind.ts';
import { modelFences, type ModelFences } from '../campaign/fences/model-fences.ts';

/** A test reached what the store's fences cannot be judged on: it is skipped there, naming it. */
export class NotJudged extends Error {}

export interface FencedStore {
  readonly fencing: FencingKind;
  /** The store for a test's snapshot and restore, which take the model along. */
  readonly store: Store;
  run<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  /** What the test's answers left unjudged so far. */
  readonly notJudged: ReadonlySet<string>;
}

interface Beside {
  model: ModelState;
  fences: ModelFences;
}

/** The store with the model beside it; null when its fences are integers (it is judged as it is). */
export function fencedStore(opened: Store, time: TimeSource): FencedStore | null {
  const fencing = fencingOf(opened);
  const ids = fenceIdsFor(opened);
  if (ids === null) return null;
  const seen = withFenceIds(opened, ids);
  const beside: Beside = { model: initialState(renewalOf(opened)), fences: modelFences(fencing, ids) };
  const notJudged = new Set<string>();
  const run = async <C extends Command>(command: C): Promise<OutcomeOf<C>> => {
    const actual = await seen.execute(beside.fences.toStore(beside.model, command));
    const readings = beside.fences.read(beside.model, command, time.now(), actual);
    const agreeing = readings.find((r) => r.agrees);
    const reading = agreeing ?? readings[0]!;
    beside.model = reading.state;
    beside.fences = reading.fences;
    if (agreeing !== undefined && !agreeing.asSent) {
      throw new NotJudged(`${command.kind}'s answer turned on the fence it carried, and the store has none`);
    }
    for (const what of reading.notJudged) notJudged.add(what);
    return (agreeing === undefined ? reading.actual : reading.outcome) as OutcomeOf<C>;
  };
  return { fencing, store: withModelImages(seen, beside), run, notJudged };
}

/** `store` whose snapshot and restore take the model and its fences along, as the store's own state. */
function withModelImages(store: Store, beside: Beside): Store {
  if (store.snapshot === undefined || store.restore === undefined) return store;
  const snapshot = async (): Promise<StoreImage> => ({ adapter: store.name, data: { image: await store.snapshot!(), model: beside.model, fences: beside.fences } });
  const restore = async (image: StoreImage): Promise<void> => {
    const saved = image.data as { image: StoreImage } & Beside;
    await store.restore!(saved.image);
    beside.model = saved.model;
    beside.fences = saved.fences;
  };
  return { ...store, snapshot, restore };
}
