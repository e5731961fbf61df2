// The host of the model-level mutants: a store that runs the reference model (model/step.ts)
// exactly as the memory adapter does, except that the command kinds a mutant names go through its
// broken rule. Every other command, the clock, snapshot and restore are the reference behaviour,
// so a mutant differs from the correct store in the one rule it names and nowhere else.
// `modelMutant` makes such a mutant of a declared store mutant (declarations.ts), the kinds it
// breaks and its broken rule.

import type { Command, CommandKind } from '../../model/commands.ts';
import { dispatchJob } from '../../model/jobs.ts';
import type { AcquireResult, Outcome, OutcomeOf, Outcomes } from '../../model/outcomes.ts';
import type { ModelState, Transition } from '../../model/state.ts';
import { initialState } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import type { StoreImage, StoreOptions, SyncStore, TimeSource } from '../port.ts';
import { declaredMutant, type StoreMutantName } from './declarations.ts';
import type { Mutant } from './mutant.ts';

/** The correct transition of any command. */
export type ReferenceStep = <C extends Command>(state: ModelState, command: C, now: number) => Transition<OutcomeOf<C>>;

export type CommandOf<K extends CommandKind> = Extract<Command, { readonly kind: K }>;

/** The broken rule for commands of the kinds `K`; `reference` is the correct rule, to delegate to. */
export type BrokenRule<K extends CommandKind> = (
  state: ModelState,
  command: CommandOf<K>,
  now: number,
  reference: ReferenceStep,
) => Transition<Outcomes[K]>;

const reference: ReferenceStep = (state, command, now) => step(state, command, now);

/**
 * A store over the reference model in which the commands of `kinds` follow `rule`.
 * `name` is the mutant's name; images taken from it restore only into the same mutant.
 */
export function modelMutantStore<K extends CommandKind>(
  name: string,
  kinds: ReadonlyArray<K>,
  rule: BrokenRule<K>,
  restored: (state: ModelState) => ModelState = (state) => state,
): (options: StoreOptions) => Promise<SyncStore> {
  const broken = new Set<CommandKind>(kinds);
  // The rule is typed per kind for its author; here it is applied only to commands of `kinds`.
  const applyRule = rule as unknown as (state: ModelState, command: Command, now: number, reference: ReferenceStep) => Transition<Outcome>;
  const adapter = `mutant:${name}`;
  return async (options) => {
    const time = storeTime(adapter, options.time);
    let state = initialState();
    const executeSync = <C extends Command>(command: C): OutcomeOf<C> => {
      const now = time.now();
      const next = broken.has(command.kind)
        ? (applyRule(state, command, now, reference) as Transition<OutcomeOf<C>>)
        : command.kind === 'DispatchJob' && broken.has('Acquire')
          ? // A dispatch creates its lease by Acquire: the broken Acquire is its lease rule too (model/jobs.ts).
            (dispatchJob(state, command, now, (s, c, n) => applyRule(s, c, n, reference) as Transition<AcquireResult>) as Transition<OutcomeOf<C>>)
          : reference(state, command, now);
      state = next.state;
      return next.outcome;
    };
    const store: SyncStore = {
      name: adapter,
      executeSync,
      execute: async (command) => executeSync(command),
      async snapshot(): Promise<StoreImage> {
        return { adapter, data: state };
      },
      async restore(image: StoreImage): Promise<void> {
        if (image.adapter !== adapter) throw new Error(`${adapter} cannot restore an image of ${image.adapter}`);
        state = restored(image.data as ModelState);
      },
      async close(): Promise<void> {},
    };
    return store;
  };
}

/** The store mutant `name` over the reference model whose commands all follow the reference, but whose restore puts `restored` of the image in place. */
export function modelImageMutant(name: StoreMutantName, restored: (state: ModelState) => ModelState): Mutant {
  return { ...declaredMutant(name), store: () => modelMutantStore(name, [], (state, command, now, ref) => ref(state, command, now), restored) };
}

/** The store mutant `name` over the reference model: the commands of `kinds` follow `broken`, all others the reference. */
export function modelMutant<K extends CommandKind>(name: StoreMutantName, kinds: ReadonlyArray<K>, broken: BrokenRule<K>): Mutant {
  return { ...declaredMutant(name), store: () => modelMutantStore(name, kinds, broken) };
}

function storeTime(adapter: string, time: TimeSource | 'database'): TimeSource {
  if (time === 'database') throw new Error(`${adapter} runs over the reference model and needs a TimeSource, not the database clock`);
  return time;
}
