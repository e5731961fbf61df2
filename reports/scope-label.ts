// Scopes as a reader knows them: a scope id is a digest (model/scope.ts), so the reports write the
// name of the reference it came from where this process planned it (sim/scope-names.ts), and the
// id where it did not (a run read back from a file written elsewhere).

import { scopeName } from '../sim/scope-names.ts';

const SCOPE_ID = /\b[a-z]+:[0-9a-f]{20}\b/g;

/** The readable name of a scope id, or the id. */
export function readableScope(id: string): string {
  return scopeName(id) ?? id;
}

/** `text` with every scope id this process can name replaced by its name. */
export function withScopeNames(text: string): string {
  return text.replace(SCOPE_ID, (id) => readableScope(id));
}

/** The scope ids `text` mentions, in order of first mention. */
export function scopeIdsIn(text: string): string[] {
  return [...new Set(text.match(SCOPE_ID) ?? [])];
}
