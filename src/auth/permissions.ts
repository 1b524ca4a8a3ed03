// Roles and what they may do: the one table every controller route is checked against.
export const accountPermissions = [
  'users.manage',
  'apikeys.manage',
  'servers.manage',
  'servers.control',
  'servers.read',
  'bans.manage',
  'queue.manage',
  'audit.read',
  'trust.read',
  'trust.submit',
  'settings.manage',
] as const;
/** Held only by owners of the network operator's account. */
export const networkPermissions = ['accounts.manage', 'trust.moderate', 'partners.manage'] as const;

export type Permission = (typeof accountPermissions)[number] | (typeof networkPermissions)[number];
export const roles = ['owner', 'admin', 'moderator', 'viewer'] as const;
export type Role = (typeof roles)[number];

export const rolePermissions: Record<Role | 'chat-bot', readonly Permission[]> = {
  owner: accountPermissions,
  admin: accountPermissions.filter((p) => p !== 'users.manage'),
  moderator: ['servers.read', 'bans.manage', 'queue.manage', 'trust.read', 'trust.submit'],
  viewer: ['servers.read', 'trust.read'],
  'chat-bot': ['servers.read', 'trust.read'],
};

export function permissionsOf(role: Role | 'chat-bot', isOperatorAccount: boolean): Set<Permission> {
  const granted = new Set<Permission>(rolePermissions[role]);
  if (role === 'owner' && isOperatorAccount) for (const p of networkPermissions) granted.add(p);
  return granted;
}
