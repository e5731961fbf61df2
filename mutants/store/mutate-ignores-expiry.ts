// mutate-ignores-expiry — seed 000 §25–§31 (a lease is bounded; a holder that woke up after its
// expiry is not the owner), §66–§70, §281. The protected write compares token and holder with the
// scope's lease row but never asks whether that row is still live: a holder that paused past its
// expiry writes as long as nobody has replaced the row yet.

import { modelMutant } from './model-store.ts';
import { fencedBy } from './rule-book-mutate.ts';

// Fenced by the scope's lease row, live or not.
export const mutateIgnoresExpiry = modelMutant('mutate-ignores-expiry', ['Mutate'], (state, command) => fencedBy(state, command, (checked) => checked.leases.get(command.scope) ?? null));
