// Typed concurrency scopes (seed 000 §6–§9, §18–§20, §155–§156, §242–§251): a scope is computed
// by a trusted planner from a typed reference, never from a free-form lock name. Its identity is
// the digest of an injective, length-prefixed encoding, so two different references can never
// share a ScopeId, and the id shows no sensitive text (§155).

import { sha256Hex } from './digest.ts';
import { assert } from './assert.ts';
import { hasControlCharacter } from './validation.ts';

export type ScopeKind =
  | 'DeploymentEnvironment'
  | 'InfrastructureEnvironment'
  | 'MergeTarget'
  | 'ReleaseChannel'
  | 'Device'
  | 'RunnerFleet'
  | 'WorkflowGroup'
  | 'DatabaseMigration'
  | 'Custom';

/** Short, readable prefixes so that a ScopeId still says what it is in a timeline. */
const SCOPE_KIND_ABBREVIATIONS: Readonly<Record<ScopeKind, string>> = {
  DeploymentEnvironment: 'env',
  InfrastructureEnvironment: 'infra',
  MergeTarget: 'merge',
  ReleaseChannel: 'chan',
  Device: 'dev',
  RunnerFleet: 'fleet',
  WorkflowGroup: 'group',
  DatabaseMigration: 'mig',
  Custom: 'custom',
};

export interface ScopeRef {
  readonly tenant: string;
  readonly kind: ScopeKind;
  readonly name: string;
  readonly project?: string;
}

/** `<kind-abbrev>:<first 20 hex digits of the SHA-256 of the canonical encoding>`. */
export type ScopeId = string;

const SCOPE_NAME_MAX_LENGTH = 200;
const DIGEST_PREFIX_HEX = 20;

/**
 * System scopes (cross-tenant resources such as a global HSM, §251–§252) live under this tenant.
 * It contains a control character, which every user-provided field is rejected for, so no user
 * reference can ever encode to a system scope (§245).
 */
export const SYSTEM_TENANT = '\u0000system';

export type InvalidScopeReason =
  | 'empty-field'
  | 'field-too-long'
  | 'control-character'
  | 'unknown-kind'
  | 'workflow-group-requires-project'
  | 'cross-tenant';

export type ScopeResult =
  | { readonly kind: 'Scope'; readonly id: ScopeId; readonly ref: ScopeRef }
  | { readonly kind: 'InvalidScope'; readonly reason: InvalidScopeReason; readonly field?: string };

function fieldProblem(value: string): InvalidScopeReason | null {
  if (value.length === 0) return 'empty-field';
  if (value.length > SCOPE_NAME_MAX_LENGTH) return 'field-too-long';
  if (hasControlCharacter(value)) return 'control-character';
  return null;
}

/**
 * The canonical encoding: every field prefixed by its length, so the fields can be read back
 * unambiguously and the encoding is injective. An absent project is `-`, a present one `+`.
 */
export function encodeScope(ref: ScopeRef): string {
  const field = (value: string): string => `${value.length}:${value}`;
  const project = ref.project === undefined ? '-' : `+${field(ref.project)}`;
  return `scope/v1|${field(ref.tenant)}|${field(ref.kind)}|${project}|${field(ref.name)}`;
}

function digestScope(ref: ScopeRef): ScopeId {
  const id = `${SCOPE_KIND_ABBREVIATIONS[ref.kind]}:${sha256Hex(encodeScope(ref)).slice(0, DIGEST_PREFIX_HEX)}`;
  assert(id.length > DIGEST_PREFIX_HEX, 'a ScopeId carries its digest prefix');
  return id;
}

/** A user- or planner-provided reference: validated, tenant-qualified (§250), namespaced (§244). */
export function scopeId(ref: ScopeRef): ScopeResult {
  if (!Object.hasOwn(SCOPE_KIND_ABBREVIATIONS, ref.kind)) return { kind: 'InvalidScope', reason: 'unknown-kind' };
  const fields: ReadonlyArray<readonly [string, string | undefined]> = [
    ['tenant', ref.tenant],
    ['name', ref.name],
    ['project', ref.project],
  ];
  for (const [field, value] of fields) {
    if (value === undefined) continue;
    if (typeof value !== 'string') return { kind: 'InvalidScope', reason: 'empty-field', field };
    const problem = fieldProblem(value);
    if (problem !== null) return { kind: 'InvalidScope', reason: problem, field };
  }
  if (ref.kind === 'WorkflowGroup' && ref.project === undefined) {
    return { kind: 'InvalidScope', reason: 'workflow-group-requires-project' };
  }
  return { kind: 'Scope', id: digestScope(ref), ref };
}

/**
 * What a caller acting for `callerTenant` may name: only scopes of its own tenant (§242, §295).
 * The planner derives the scope; a reference to another tenant is refused, not rewritten.
 */
export function resolveForTenant(callerTenant: string, ref: ScopeRef): ScopeResult {
  if (ref.tenant !== callerTenant) return { kind: 'InvalidScope', reason: 'cross-tenant' };
  return scopeId(ref);
}

/** A system-defined scope (§251). Only trusted code calls this; it is never fed user input. */
export function systemScopeId(kind: ScopeKind, name: string): ScopeId {
  assert(fieldProblem(name) === null, `system scope name is valid: ${JSON.stringify(name)}`);
  return digestScope({ tenant: SYSTEM_TENANT, kind, name });
}
