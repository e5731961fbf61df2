// tenant-isolation (seed 000 §242–§251, §295; seed 003 "length-prefix channel key fields so the
// mapping is injective"): a caller acting for one tenant resolves only references of its own
// tenant, and a scope id names one reference only, so two tenants never share a scope. The
// controllers record each resolution as a `resolve-scope` operation `{ tenant, ref }` answered
// ok `{ scope }` or fail `{ reason }`.

import type { History } from '../history.ts';
import type { Verdict, Violation } from '../verdict.ts';
import { asFields, controllerOps, indicesOf, pairOperations, requireString, stringField, type Operation } from './operations.ts';
import { verdictOf, violation } from './violations.ts';

const INVARIANT = 'tenant-isolation';

function describeRef(ref: unknown): string {
  const fields = asFields(ref) ?? {};
  return `${String(fields['tenant'])}/${String(fields['kind'])}/${fields['project'] === undefined ? '' : `${String(fields['project'])}/`}${String(fields['name'])}`;
}

export function tenantIsolation(history: History): Verdict {
  const violations: Violation[] = [];
  const owner = new Map<string, { op: Operation; ref: string }>();
  for (const op of controllerOps(pairOperations(history), 'resolve-scope')) {
    if (op.completion?.type !== 'ok') continue;
    const caller = requireString(op.invoke.value, 'tenant', op.invoke.index);
    const refValue = asFields(op.invoke.value)?.['ref'];
    const refTenant = stringField(refValue, 'tenant');
    const ref = describeRef(refValue);
    const scope = requireString(op.completion.value, 'scope', op.completion.index);
    if (refTenant !== caller) {
      violations.push(violation(INVARIANT, `${op.process} acting for tenant ${caller} resolved ${ref}, a reference of another tenant, to scope ${scope} (#${op.completion.index})`, indicesOf(op), scope));
    }
    const first = owner.get(scope);
    if (first === undefined) owner.set(scope, { op, ref });
    else if (first.ref !== ref) {
      violations.push(violation(INVARIANT, `scope ${scope} names two references: ${first.ref} (#${first.op.invoke.index}) and ${ref} (#${op.invoke.index})`, [...indicesOf(first.op), ...indicesOf(op)], scope));
    }
  }
  return verdictOf(violations);
}
