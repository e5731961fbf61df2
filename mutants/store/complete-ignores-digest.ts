// complete-ignores-digest — seed 000 §46–§47, §284. IdempotencyBegin compares the request digest,
// but IdempotencyComplete finds the record by key alone and records the outcome whatever digest
// it carries. A request that outlived its record (retention shorter than the request) completes
// on the record another request took the key with, and that request's retries replay an outcome
// that is not theirs.

import { withStoredDigest } from './digest-ignored.ts';
import { modelMutant } from './model-store.ts';

export const completeIgnoresDigest = modelMutant('complete-ignores-digest', ['IdempotencyComplete'], withStoredDigest);
