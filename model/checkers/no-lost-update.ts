// no-lost-update (seed 000 §66–§70, the rule book's Mutate): a protected write is also an
// expected-version write. Each Accepted answer says the version its write made, which is the
// expected one plus one, under the token the write was sent with; and two writes to one aggregate
// are never both accepted from the same expected version — one of them overwrote the other's
// change unseen — unless a failover or restore replaced the durable state between them.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { indicesOf, isFault, pairOperations, storeOps, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'no-lost-update';

/** History indices at which the durable state was replaced (a failover or a restore that happened). */
function replacements(history: History): ReadonlyArray<number> {
  return history.filter((e) => isFault(e) && (e.f === 'db-failover' || e.f === 'db-restore') && e.value.skipped !== true).map((e) => e.index);
}

export function noLostUpdate(history: History): Verdict {
  const violations: Violation[] = [];
  const replaced = replacements(history);
  const accepted = new Map<string, { readonly op: Operation; readonly holder: string }>();
  for (const { op, command, outcome } of storeOps(pairOperations(history), 'Mutate')) {
    if (outcome?.kind !== 'Accepted') continue;
    const { scope, aggregate, expectedVersion } = command;
    const where = `scope ${scope} aggregate ${aggregate}`;
    if (outcome.version !== expectedVersion + 1 || outcome.token !== command.token) {
      violations.push(violation(INVARIANT, `${where}: a write by ${command.holder} expecting version ${expectedVersion} under token ${command.token} was answered Accepted with version ${outcome.version} under token ${outcome.token}`, indicesOf(op), scope));
    }
    const key = `${scope}\u0000${aggregate}\u0000${expectedVersion}`;
    const earlier = accepted.get(key);
    accepted.set(key, { op, holder: command.holder });
    if (earlier === undefined) continue;
    // A replaced durable state may have rolled the version back: then the same version is free again.
    const from = earlier.op.completion?.index ?? earlier.op.invoke.index;
    if (replaced.some((index) => index > earlier.op.invoke.index && index < op.invoke.index)) continue;
    violations.push(
      violation(INVARIANT, `${where}: writes by ${earlier.holder} (#${from}) and ${command.holder} (#${op.completion?.index ?? op.invoke.index}) were both accepted from version ${expectedVersion}: one overwrote the other unseen`, [...indicesOf(earlier.op), ...indicesOf(op)], scope),
    );
  }
  return verdictOf(violations);
}
