// tenant-dropped-from-scope — seed 000 §242–§250 (tenant-qualified scopes, "never derive a scope
// from a free-form name"), §295 tenant isolation test; seed 003 ("length-prefix channel key fields
// so the mapping is injective across adapter/tenant/channel combinations"). The planner derives a
// scope id from kind, project and name only: two tenants' environments of the same name are one
// scope.

import type { PolicyMutant } from './policy-mutant.ts';

export const tenantDroppedFromScope: PolicyMutant = {
  name: 'tenant-dropped-from-scope',
  bug: 'scope ids are derived without the tenant, so two tenants’ scopes of the same name collide',
  source: '000 §242–§250, §295; 003 injective lock scope keys',
  rule: 'tenant-isolation: a scope id belongs to one tenant’s reference only',
  invariants: ['tenant-isolation'],
  scenarios: ['tenant-isolation'],
  policy: { scopeIdsCarryTenant: false },
};
