// artifact-from-cas (seed 001 §4 and §340 "CAS remains artifact/data authority", §100, §278 "CAS
// Lost Test: jobs depending on CAS fail/degrade correctly"): in a run whose jobs have artifacts,
// every effect an attempt makes comes after that attempt fetched the job's artifact from the
// artifact store, by digest, and the store answered. An attempt that could not fetch it must give
// the job back, not act without it.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { controllerOps, pairOperations, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'artifact-from-cas';

export function artifactFromCas(history: History): Verdict {
  const operations = pairOperations(history);
  const fetches = controllerOps(operations, 'cas-fetch');
  if (fetches.length === 0) return verdictOf([]);
  const fetchedBy = new Map<string, Operation[]>();
  for (const fetch of fetches) {
    if (fetch.completion?.type !== 'ok') continue;
    const key = `${fetch.process} ${stringField(fetch.invoke.value, 'intentId') ?? ''}`;
    fetchedBy.set(key, [...(fetchedBy.get(key) ?? []), fetch]);
  }
  const violations: Violation[] = [];
  for (const effect of controllerOps(operations, 'effect')) {
    const intentId = stringField(effect.invoke.value, 'intentId') ?? '';
    const fetched = (fetchedBy.get(`${effect.process} ${intentId}`) ?? []).some((fetch) => fetch.completion!.index < effect.invoke.index);
    if (fetched) continue;
    violations.push(violation(INVARIANT, `${effect.process} made effect ${intentId} (#${effect.invoke.index}) without the job's artifact from the artifact store`, [effect.invoke.index]));
  }
  return verdictOf(violations);
}
