// A store driven by a clock kit (clock-kit.ts): before each call the library's fake clock is
// brought to the store's time, so its timers, intervals and maintenance run at the virtual times
// they are due, before the call that follows them, as they would have run in real time with nothing
// but store calls to observe them. An error that escaped the library (thrown from one of its
// timers, or a rejection one of them left) is thrown from the next `execute` as a StoreEscapeError
// naming the call in flight when it escaped: the port says anything else a store throws is a bug of
// the store, so a run reports it as a `port-contract` finding and the check as a divergence.

import type { Command } from '../model/commands.ts';
import type { OutcomeOf } from '../model/outcomes.ts';
import type { CallContext, LifecycleEvent, Store, StoreImage } from './port.ts';
import { describeLifecycle, describeStoreCall, type StoreEscapeError } from './store-escape.ts';

/** What the driven store needs of the kit. */
export interface KitDriver {
  /** Brings the clock to the store's time, running what falls due; `call` names the call it is brought to. */
  advance(call: string): Promise<void>;
  /** Marks `call` as in flight (null: none), so an error escaping meanwhile names it. */
  inFlight(call: string | null): void;
  /** The first error that escaped and was not yet thrown, as a StoreEscapeError; null when none. */
  takeEscape(): StoreEscapeError | null;
  /** Stops every timer and puts back what `install` replaced. */
  dispose(): void;
}

export function driveStore(inner: Store, kit: KitDriver): Store {
  /** Runs `work` as the call `name`, after the clock has caught up with store time. */
  const during = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    await kit.advance(name);
    kit.inFlight(name);
    try {
      return await work();
    } finally {
      kit.inFlight(null);
    }
  };
  const throwEscaped = (): void => {
    const escaped = kit.takeEscape();
    if (escaped !== null) throw escaped;
  };
  const driven: Store = {
    name: inner.name,
    ...(inner.capabilities === undefined ? {} : { capabilities: inner.capabilities }),
    async execute<C extends Command>(command: C, call?: CallContext): Promise<OutcomeOf<C>> {
      const name = describeStoreCall(command.kind, call);
      await kit.advance(name);
      // A timer that threw on the way to this call: the call does not run, since the library's
      // state is whatever the failed timer left.
      throwEscaped();
      const outcome = await during(name, () => inner.execute(command, call));
      throwEscaped();
      return outcome;
    },
    async close() {
      kit.dispose();
      await inner.close();
      // Escaped after the last call (in a lifecycle event or snapshot): no call is left to throw it
      // from, so close says it rather than let the run pass.
      throwEscaped();
    },
  };
  // The optional calls exist on the driven store only where the library's store has them: the
  // simulator reads their presence (a store without lifecycle is told nothing). Their escapes are
  // thrown by the next execute, since a throwing lifecycle or snapshot cannot be a finding.
  const optional: Partial<Pick<Store, 'lifecycle' | 'snapshot' | 'restore'>> = {};
  if (inner.lifecycle !== undefined) {
    const lifecycle = inner.lifecycle.bind(inner);
    optional.lifecycle = (event: LifecycleEvent) => during(describeLifecycle(event), () => lifecycle(event));
  }
  if (inner.snapshot !== undefined) {
    const snapshot = inner.snapshot.bind(inner);
    optional.snapshot = () => during('snapshot', () => snapshot());
  }
  if (inner.restore !== undefined) {
    const restore = inner.restore.bind(inner);
    optional.restore = (image: StoreImage) => during('restore', () => restore(image));
  }
  return Object.assign(driven, optional);
}
