// The policy mutants of the work a run does: a controller that holds its lease, is told nothing
// to stop and is refused nothing, yet does not do what the run is for (mutants/entry.ts says how to
// write one).

import { mutantTable, type PolicyMutant } from '../entry.ts';

export const RUN_WORK_MUTANTS = mutantTable<PolicyMutant>({
  // Seed 000 §59–§61 (an intent is persisted, then the provider is called; the intent moves from
  // Started to Succeeded or Failed) and §115–§117 (only a cancellation stops new side effects).
  // The protocol mutation run found it: with the body of the effect step emptied, no run ever
  // calls its provider, and every safety rule still holds of a controller that does nothing. Here
  // the controller plans and starts the intent, then marks it Failed and reports the effect not
  // applied without sending it.
  'effect-never-sent': {
    bug: 'a run that nothing stopped marks its intent Failed and reports its effect not applied without ever calling the provider',
    source: '000 §59–§61, §115–§117; the protocol mutation run (npm run mutation)',
    rows: ['000-316-chaos-stress'],
    rule: 'runs-do-work: a handler run that nothing told to stop and its store refused nothing calls its provider',
    invariants: ['runs-do-work'],
    scenarios: ['standard-mix', 'displaced-waiter-recheck'],
    flips: 'callProvider',
  },
});
