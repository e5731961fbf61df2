// The roles the coordination leader assigns (seed 001 §42), named as the store's `guard.role`.
// A file of their own because both the coordination state machine (coordination-epoch.ts) and
// the maintenance gate (maintenance.ts, which says what each role's loop starts) name them, and
// the state machine holds the maintenance state: with the roles in either, the two would import
// each other.

export const COORDINATED_ROLES = ['scheduler', 'release-coordinator', 'deployment-coordinator'] as const;
export type CoordinatedRole = (typeof COORDINATED_ROLES)[number];
