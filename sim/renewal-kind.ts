// What a store's granted renewals do (capabilities.renewal, adapters/port.ts): extend the lease
// to now + ttl (the reference semantics), or only confirm that it is still held.

import type { Store } from '../adapters/port.ts';
import { RENEWAL_KINDS, type RenewalKind } from '../model/state.ts';

export { RENEWAL_KINDS };

export function renewalOf(store: Store): RenewalKind {
  const kind = store.capabilities?.renewal ?? 'extends';
  if ((RENEWAL_KINDS as ReadonlyArray<unknown>).includes(kind)) return kind;
  throw new Error(`store ${store.name} declares capabilities.renewal ${JSON.stringify(kind)}: expected ${RENEWAL_KINDS.map((k) => `'${k}'`).join(' or ')}`);
}
