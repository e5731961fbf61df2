// seed 000 §6–§9, §242–§251, §278, §295: typed scopes have one canonical, injective, tenant-qualified identity.

import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { encodeScope, resolveForTenant, scopeId, systemScopeId, SYSTEM_TENANT, type ScopeKind, type ScopeRef } from '../../model/scope.ts';

const KINDS: ReadonlyArray<ScopeKind> = [
  'DeploymentEnvironment',
  'InfrastructureEnvironment',
  'MergeTarget',
  'ReleaseChannel',
  'Device',
  'RunnerFleet',
  'WorkflowGroup',
  'DatabaseMigration',
  'Custom',
];

const field = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', ':', '|', '1', '-', '+', 'é') });
const refArb = fc.record(
  { tenant: field, kind: fc.constantFrom(...KINDS), name: field, project: fc.option(field, { nil: undefined }) },
  { requiredKeys: ['tenant', 'kind', 'name'] },
);

function idOf(ref: ScopeRef): string {
  const result = scopeId(ref);
  if (result.kind !== 'Scope') throw new Error(`unexpected ${result.reason}`);
  return result.id;
}

describe('scope identity', () => {
  test('a ScopeId is readable: kind abbreviation and 20 hex digits', () => {
    expect(idOf({ tenant: 'acme', kind: 'DeploymentEnvironment', name: 'prod' })).toMatch(/^env:[0-9a-f]{20}$/);
    expect(idOf({ tenant: 'acme', kind: 'MergeTarget', name: 'repo/main' })).toMatch(/^merge:[0-9a-f]{20}$/);
  });

  test('the same name under different kinds, tenants or projects gives different scopes', () => {
    const ids = new Set([
      idOf({ tenant: 'acme', kind: 'Device', name: 'pixel-8-01' }),
      idOf({ tenant: 'acme', kind: 'Custom', name: 'pixel-8-01' }),
      idOf({ tenant: 'globex', kind: 'Device', name: 'pixel-8-01' }),
      idOf({ tenant: 'acme', kind: 'Device', name: 'pixel-8-01', project: 'p' }),
    ]);
    expect(ids.size).toBe(4);
  });

  propTest.prop([refArb, refArb])('property: the canonical encoding is injective (different refs never encode alike)', (a, b) => {
    const same = a.tenant === b.tenant && a.kind === b.kind && a.name === b.name && a.project === b.project;
    expect(encodeScope(a) === encodeScope(b)).toBe(same);
  });

  test('field boundaries cannot be shifted to forge another scope', () => {
    const a = encodeScope({ tenant: 'a|1:b', kind: 'Custom', name: 'c' });
    const b = encodeScope({ tenant: 'a', kind: 'Custom', name: 'b|1:c' });
    expect(a).not.toBe(b);
  });
});

describe('invalid scopes are typed results, never exceptions', () => {
  test.each([
    [{ tenant: 'acme', kind: 'Device', name: '' }, 'empty-field'],
    [{ tenant: '', kind: 'Device', name: 'x' }, 'empty-field'],
    [{ tenant: 'acme', kind: 'Device', name: 'x'.repeat(201) }, 'field-too-long'],
    [{ tenant: 'acme', kind: 'Device', name: 'bad\nname' }, 'control-character'],
    [{ tenant: 'acme', kind: 'Device', name: 'del\u007f' }, 'control-character'],
    [{ tenant: 'acme', kind: 'WorkflowGroup', name: 'ci' }, 'workflow-group-requires-project'],
    [{ tenant: 'acme', kind: 'Mutex' as ScopeKind, name: 'x' }, 'unknown-kind'],
  ] as const)('%o -> %s', (ref, reason) => {
    expect(scopeId(ref as ScopeRef)).toMatchObject({ kind: 'InvalidScope', reason });
  });

  test('a name of exactly 200 characters is accepted', () => {
    expect(scopeId({ tenant: 'acme', kind: 'Device', name: 'x'.repeat(200) }).kind).toBe('Scope');
  });
});

describe('user scopes never reach system scopes (§244–§245, §251)', () => {
  test('the reserved system tenant cannot be named by a user reference', () => {
    expect(scopeId({ tenant: SYSTEM_TENANT, kind: 'Custom', name: 'hsm' })).toMatchObject({ kind: 'InvalidScope', reason: 'control-character' });
  });

  propTest.prop([refArb])('property: no valid user reference produces a system ScopeId', (ref) => {
    const user = scopeId(ref);
    if (user.kind !== 'Scope') return;
    expect(user.id).not.toBe(systemScopeId(ref.kind, ref.name));
  });

  test('a workflow group is namespaced to its tenant and project', () => {
    const a = idOf({ tenant: 'acme', kind: 'WorkflowGroup', project: 'web', name: 'deploy' });
    const b = idOf({ tenant: 'acme', kind: 'WorkflowGroup', project: 'api', name: 'deploy' });
    const c = idOf({ tenant: 'globex', kind: 'WorkflowGroup', project: 'web', name: 'deploy' });
    expect(new Set([a, b, c]).size).toBe(3);
  });

  test('a caller cannot resolve a scope of another tenant', () => {
    expect(resolveForTenant('acme', { tenant: 'globex', kind: 'DeploymentEnvironment', name: 'prod' })).toEqual({ kind: 'InvalidScope', reason: 'cross-tenant' });
    expect(resolveForTenant('acme', { tenant: 'acme', kind: 'DeploymentEnvironment', name: 'prod' }).kind).toBe('Scope');
  });
});
