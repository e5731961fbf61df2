// Federation site authority (seed 000 §163–§169, §266–§268). Per domain one site holds the
// authority, under an authority epoch that sits above the local fencing token and the aggregate
// version: each guards a different race (§164–§165). The authority epoch is a role epoch
// (role-epoch.ts) whose role names the domain, `authority:<domain>`: the store keeps the highest
// epoch it has seen per role, fences an older one and takes a newer one, which is exactly what a
// site failover needs (§168: the new epoch invalidates the old site's leases and writes). So the
// rule book has one epoch mechanism, and a store that checks role guards checks site authority
// with no new command or column. There is no global WAN lock service (§166): the epoch changes
// only at a failover, and a site keeps taking local leases under it while cut off (§267).

import { assert } from './assert.ts';
import type { RoleGuard } from './commands.ts';

const PREFIX = 'authority:';

/** The role epoch that carries the authority of `domain`. */
export function authorityRole(domain: string): string {
  assert(domain.length > 0, 'a federation domain has a name');
  assert(!domain.includes(':'), 'a domain name holds no colon, so the role reads back to it');
  return `${PREFIX}${domain}`;
}

/** The domain whose authority `role` carries, or null for any other role (a coordinator's). */
export function domainOfRole(role: string): string | null {
  if (!role.startsWith(PREFIX)) return null;
  const domain = role.slice(PREFIX.length);
  return domain.length > 0 && !domain.includes(':') ? domain : null;
}

/** The guard a site's controllers send with a lease or a write of `domain` under `epoch`. */
export function authorityGuard(domain: string, epoch: number): RoleGuard {
  assert(Number.isInteger(epoch) && epoch >= 1, 'an authority epoch is a positive integer');
  return { role: authorityRole(domain), epoch };
}
