// A scope id is a digest of its typed reference (model/scope.ts): it shows none of the
// reference's text, which is the point in a store, and says nothing to a reader of a report. The
// planner derives the scopes of a plan here, and each id's reference is noted, so that a report
// can name the scopes of a run planned in this process (`t1/env-deploy-2`). A run read back from
// a file in another process finds no names here, and its report shows the ids.

import { scopeId, SYSTEM_TENANT, systemScopeId, type ScopeId, type ScopeKind, type ScopeRef } from '../model/scope.ts';

const idOfRef = new Map<string, ScopeId>();
const nameOfId = new Map<ScopeId, string>();

/** The scope of a reference the planner made (computed once: the digest is worth keeping). */
export function plannedScope(ref: ScopeRef): ScopeId {
  const key = `${ref.tenant}\u0000${ref.kind}\u0000${ref.project ?? ''}\u0000${ref.name}`;
  let id = idOfRef.get(key);
  if (id === undefined) {
    const result = scopeId(ref);
    if (result.kind !== 'Scope') throw new Error(`scope ${ref.kind} ${ref.name} is invalid: ${result.reason}`);
    id = result.id;
    idOfRef.set(key, id);
    noteScope(ref, id);
  }
  return id;
}

/** A system scope (model/scope.ts `systemScopeId`), named `system/<name>`. */
export function plannedSystemScope(kind: ScopeKind, name: string): ScopeId {
  const id = systemScopeId(kind, name);
  noteScope({ tenant: SYSTEM_TENANT, kind, name }, id);
  return id;
}

/** Notes the reference a scope id was derived from (a controller resolving a tenant's reference at run time). */
export function noteScope(ref: ScopeRef, id: ScopeId): void {
  const tenant = ref.tenant === SYSTEM_TENANT ? 'system' : ref.tenant;
  nameOfId.set(id, [tenant, ref.project, ref.name].filter((part) => part !== undefined).join('/'));
}

/** The readable name of a scope this process planned (`<tenant>/[<project>/]<name>`), or undefined. */
export function scopeName(id: string): string | undefined {
  return nameOfId.get(id);
}
