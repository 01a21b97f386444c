/**
 * Who may do what on a team server (docs/team.md): five roles, and the permission each
 * operation of the contract declares beside whether it writes (contract.ts `op`). The one gate
 * every request passes (the core's dispatch, given the signed-in person's role) reads both; a
 * core with no person given (the desktop app, the loopback web shell, the CLI on its own cache)
 * is its one user's, who may do everything.
 */

export const ROLES = ['owner', 'preparer', 'approver', 'viewer', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What an operation needs:
 * - `read`: read the books, export reports and closed periods' bundles (every role);
 * - `books`: keep the books — wallets, groups, the address book, notes, categories, rules,
 *   imports, spam verdicts, alert rules, schedules, syncs (preparer, owner);
 * - `prepare`: prepare a period's close (preparer, owner);
 * - `approve`: approve or reject a prepared close, reopen a closed one (approver, owner);
 * - `admin`: people, settings, the service and its key, the cache and its backups (owner).
 */
export const PERMISSIONS = ['read', 'books', 'prepare', 'approve', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ['read', 'books', 'prepare', 'approve', 'admin'],
  preparer: ['read', 'books', 'prepare'],
  approver: ['read', 'approve'],
  viewer: ['read'],
  auditor: ['read'],
};

export function roleAllows(role: Role, needs: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(needs);
}

/** Roles ordered by what they may do, for "a token's role is no higher than its owner's". */
export function roleCovers(holder: Role, wanted: Role): boolean {
  return ROLE_PERMISSIONS[wanted].every((p) => roleAllows(holder, p));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The person a team server's request is made by: the gate checks their role; the audit trail names them. */
export interface Actor {
  person: string;
  role: Role;
}
