// The host of the model-level mutants: a store that runs the reference model (model/step.ts)
// exactly as the memory adapter does, except that the command kinds a mutant names go through its
// broken rule. Every other command, the clock, snapshot and restore are the reference behaviour,
// so a mutant differs from the correct store in the one rule it names and nowhere else.
// `modelMutant` makes such a mutant of a declared store mutant (declarations.ts), the kinds it
// breaks and its broken rule; `modelImageMutant` one whose restore is broken,
// `modelLifecycleMutant` one that changes its state when it is told of a lifecycle event (the
// reference store has no `lifecycle`: no event changes it), and `modelSessionMutant` one whose
// rule looks at the calling process, which the reference never does.

import type { Command, CommandKind } from '../../model/commands.ts';
import { dispatchJob } from '../../model/jobs.ts';
import type { AcquireResult, Lease, Outcome, OutcomeOf, Outcomes } from '../../model/outcomes.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { CallContext, LifecycleEvent, Store, StoreImage, StoreOptions, SyncStore, TimeSource } from '../../adapters/port.ts';
import { declaredMutant, type StoreMutantName } from './declarations.ts';
import type { StoreMutant } from '../entry.ts';

/** The correct transition of any command. */
export type ReferenceStep = <C extends Command>(state: ModelState, command: C, now: number) => Transition<OutcomeOf<C>>;

export type CommandOf<K extends CommandKind> = Extract<Command, { readonly kind: K }>;

/** The process making a call, as a session mutant's rule sees it. */
export interface Caller {
  /** Whether the calling process took `lease` (its Acquire, AcquireAll or DispatchJob granted it); never for a call that names no process. */
  took(lease: Lease): boolean;
}

/** The broken rule for commands of the kinds `K`; `reference` is the correct rule, to delegate to. */
export type BrokenRule<K extends CommandKind> = (
  state: ModelState,
  command: CommandOf<K>,
  now: number,
  reference: ReferenceStep,
  caller: Caller,
) => Transition<Outcomes[K]>;

const reference: ReferenceStep = (state, command, now) => step(state, command, now);

/** Broken behaviour beside the commands: what a restore puts in place, what a lifecycle event does to the state. */
interface StoreHooks {
  readonly restored?: (state: ModelState) => ModelState;
  /** Present only on a mutant whose bug is there: a store with `lifecycle` is told events that others are not. */
  readonly lifecycle?: (state: ModelState, event: LifecycleEvent) => ModelState;
  /**
   * The rule looks at the calling process: the store remembers which process took each lease, and
   * has no `executeSync`, which carries no call context (the simulator then calls `execute`).
   */
  readonly sessions?: true;
}

/** The leases a command's outcome granted to its caller. */
function granted(outcome: Outcome): ReadonlyArray<Lease> {
  if (outcome.kind === 'Acquired' || outcome.kind === 'JobDispatched') return [outcome.lease];
  return outcome.kind === 'AcquiredAll' ? outcome.leases : [];
}

/** Which process took each scope's latest lease, by its token: what a session-bound store knows of its callers. */
class LeaseTakers {
  private readonly byScope = new Map<string, { readonly token: number; readonly process: string }>();

  callerOf(call: CallContext | undefined): Caller {
    return {
      took: (lease) => {
        const taker = this.byScope.get(lease.scope);
        return call !== undefined && taker?.token === lease.token && taker.process === call.process;
      },
    };
  }

  /** The leases `outcome` granted; one granted to a call that names no process is no session's. */
  record(outcome: Outcome, call: CallContext | undefined): void {
    for (const lease of granted(outcome)) {
      if (call === undefined) this.byScope.delete(lease.scope);
      else this.byScope.set(lease.scope, { token: lease.token, process: call.process });
    }
  }
}

/**
 * A store over the reference model in which the commands of `kinds` follow `rule`.
 * `name` is the mutant's name; images taken from it restore only into the same mutant.
 */
export function modelMutantStore<K extends CommandKind>(
  name: string,
  kinds: ReadonlyArray<K>,
  rule: BrokenRule<K>,
  hooks: StoreHooks = {},
): (options: StoreOptions) => Promise<Store> {
  const restored = hooks.restored ?? ((state: ModelState) => state);
  const told = hooks.lifecycle;
  const broken = new Set<CommandKind>(kinds);
  // The rule is typed per kind for its author; here it is applied only to commands of `kinds`.
  const applyRule = rule as unknown as (state: ModelState, command: Command, now: number, reference: ReferenceStep, caller: Caller) => Transition<Outcome>;
  const adapter = `mutant:${name}`;
  return async (options) => {
    const time = storeTime(adapter, options.time);
    const takers = new LeaseTakers();
    let state = initialState();
    const run = <C extends Command>(command: C, call?: CallContext): OutcomeOf<C> => {
      const now = time.now();
      const caller = takers.callerOf(call);
      const next = broken.has(command.kind)
        ? (applyRule(state, command, now, reference, caller) as Transition<OutcomeOf<C>>)
        : command.kind === 'DispatchJob' && broken.has('Acquire')
          ? // A dispatch creates its lease by Acquire: the broken Acquire is its lease rule too (model/jobs.ts).
            (dispatchJob(state, command, now, (s, c, n) => applyRule(s, c, n, reference, caller) as Transition<AcquireResult>) as Transition<OutcomeOf<C>>)
          : reference(state, command, now);
      state = next.state;
      if (hooks.sessions) takers.record(next.outcome as Outcome, call);
      return next.outcome;
    };
    const store: Store | SyncStore = {
      name: adapter,
      ...(hooks.sessions ? {} : { executeSync: <C extends Command>(command: C) => run(command) }),
      execute: async (command, call) => run(command, call),
      async snapshot(): Promise<StoreImage> {
        return { adapter, data: state };
      },
      async restore(image: StoreImage): Promise<void> {
        if (image.adapter !== adapter) throw new Error(`${adapter} cannot restore an image of ${image.adapter}`);
        state = restored(image.data as ModelState);
      },
      async close(): Promise<void> {},
      ...(told === undefined
        ? {}
        : {
            async lifecycle(event: LifecycleEvent): Promise<void> {
              state = told(state, event);
            },
          }),
    };
    return store;
  };
}

/** The store mutant `name` over the reference model whose commands all follow the reference, but whose restore puts `restored` of the image in place. */
export function modelImageMutant(name: StoreMutantName, restored: (state: ModelState) => ModelState): StoreMutant {
  return { ...declaredMutant(name), wraps: () => modelMutantStore(name, [], (state, command, now, ref) => ref(state, command, now), { restored }) };
}

/** The store mutant `name` over the reference model: the commands of `kinds` follow `broken`, which may look at the calling process. */
export function modelSessionMutant<K extends CommandKind>(name: StoreMutantName, kinds: ReadonlyArray<K>, broken: BrokenRule<K>): StoreMutant {
  return { ...declaredMutant(name), wraps: () => modelMutantStore(name, kinds, broken, { sessions: true }) };
}

/** The store mutant `name` over the reference model whose commands all follow the reference, but which changes its state by `told` when it is told of a lifecycle event. */
export function modelLifecycleMutant(name: StoreMutantName, told: (state: ModelState, event: LifecycleEvent) => ModelState): StoreMutant {
  return { ...declaredMutant(name), wraps: () => modelMutantStore(name, [], (state, command, now, ref) => ref(state, command, now), { lifecycle: told }) };
}

/** The store mutant `name` over the reference model: the commands of `kinds` follow `broken`, all others the reference. */
export function modelMutant<K extends CommandKind>(name: StoreMutantName, kinds: ReadonlyArray<K>, broken: BrokenRule<K>): StoreMutant {
  return { ...declaredMutant(name), wraps: () => modelMutantStore(name, kinds, broken) };
}

function storeTime(adapter: string, time: TimeSource | 'database'): TimeSource {
  if (time === 'database') throw new Error(`${adapter} runs over the reference model and needs a TimeSource, not the database clock`);
  return time;
}
