// The starting states of race cases, built through the port: each is a chain of command kinds
// run serially from an empty store (the command of each kind picked as commands.ts picks a case's
// commands), and a timing: the race's calls arrive just after the chain (`same`), after every
// lease, permit and reservation of it has expired (`expired`), or across the expiry of the race
// scope's lease, the first call just before it and the others at it (`expiring`, store time
// passing during the batch).

import type { Command, CommandKind } from '../../model/commands.ts';
import { initialState, liveLease, type ModelState, type RenewalKind } from '../../model/state.ts';
import { step } from '../../model/step.ts';
import { START_MS } from '../check/world.ts';
import { pickCommand, RACE_SCOPE } from './commands.ts';

export type RaceTiming = 'same' | 'expired' | 'expiring';

export interface RaceState {
  readonly name: string;
  readonly chain: ReadonlyArray<CommandKind>;
  readonly timing: RaceTiming;
}

export const RACE_STATES: ReadonlyArray<RaceState> = [
  { name: 'free', chain: [], timing: 'same' },
  { name: 'held', chain: ['Acquire'], timing: 'same' },
  { name: 'expired', chain: ['Acquire'], timing: 'expired' },
  { name: 'expiring', chain: ['Acquire'], timing: 'expiring' },
  { name: 'with-waiter', chain: ['Acquire', 'Enqueue'], timing: 'same' },
  { name: 'aggregate-written', chain: ['Acquire', 'Mutate'], timing: 'same' },
  { name: 'intent-planned', chain: ['Acquire', 'PlanIntent'], timing: 'same' },
  { name: 'capacity-defined', chain: ['DefineCapacity'], timing: 'same' },
  { name: 'permit-held', chain: ['DefineCapacity', 'AcquirePermit'], timing: 'same' },
  { name: 'reserved', chain: ['DefineCapacity', 'Reserve'], timing: 'same' },
  { name: 'idempotency-begun', chain: ['IdempotencyBegin'], timing: 'same' },
  { name: 'idempotency-completed', chain: ['IdempotencyBegin', 'IdempotencyComplete'], timing: 'same' },
  { name: 'job-submitted', chain: ['SubmitJob'], timing: 'same' },
  { name: 'job-dispatched', chain: ['SubmitJob', 'DispatchJob'], timing: 'same' },
  { name: 'job-finished', chain: ['SubmitJob', 'DispatchJob', 'FinishJob'], timing: 'same' },
  { name: 'role-epoch-set', chain: ['AdvanceRoleEpoch'], timing: 'same' },
];

export function findRaceState(name: string): RaceState | undefined {
  return RACE_STATES.find((s) => s.name === name);
}

/** Every chain command runs one millisecond after the previous, from START_MS. */
export interface BuiltState {
  readonly setup: ReadonlyArray<{ readonly command: Command; readonly at: number }>;
  readonly model: ModelState;
  /** When each slot's call arrives (null: the timing does not apply to this state). */
  arrivals(slots: number): number[] | null;
}

/** Longer than every TTL of the check's world: what the chain took has expired by then. */
const EXPIRED_AFTER_MS = 10_000;

/** `renewal`: what the store's renewals do (capabilities.renewal); the chain is stepped in that variant. */
export function buildState(raceState: RaceState, renewal: RenewalKind = 'extends'): BuiltState {
  let model = initialState(renewal);
  const setup: Array<{ command: Command; at: number }> = [];
  raceState.chain.forEach((kind, i) => {
    const at = START_MS + i;
    const command = pickCommand(kind, model, at, 0, []);
    setup.push({ command, at });
    model = step(model, command, at).state;
  });
  const after = START_MS + raceState.chain.length;
  const lease = liveLease(model, RACE_SCOPE, after);
  return {
    setup,
    model,
    arrivals(slots) {
      if (raceState.timing === 'same') return Array<number>(slots).fill(after);
      if (raceState.timing === 'expired') return Array<number>(slots).fill(after + EXPIRED_AFTER_MS);
      if (lease === null) return null;
      return [after, ...Array<number>(slots - 1).fill(lease.expiresAt)];
    },
  };
}
