// Controller users of an account: creation with a hashed password, role and password changes,
// removal (which ends the user's sessions). An account always keeps at least one owner.
import type { Core } from '../core.ts';
import { ApiError } from '../http/errors.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { hashPassword } from '../auth/password.ts';
import type { Role } from '../auth/permissions.ts';
import { revokeUserSessions } from '../auth/session.repo.ts';
import { countOwners, deleteUser, findUserRole, insertUser, lockAccountOwners, updateUser } from './user.repo.ts';
import type { User } from './user.repo.ts';

/** Where a user is made: the pool or a transaction's client, and the configuration (the hash's cost). */
export type UserStore = Pick<Core, 'config'> & { db: Queryable };

export async function createUser(store: UserStore, accountId: string, username: string, password: string, role: Role): Promise<User> {
  try {
    return await insertUser(store.db, accountId, username, await hashPassword(password, store.config.passwordScryptN), role);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new ApiError('CONFLICT', 'that username is taken');
    throw err;
  }
}

export async function changeUser(deps: Core, accountId: string, userId: string, change: { role?: Role; password?: string }): Promise<User> {
  const passwordHash = change.password ? await hashPassword(change.password, deps.config.passwordScryptN) : undefined;
  const user = await inTransaction(deps.db, async (tx) => {
    if (change.role && change.role !== 'owner') await keepAnOwner(tx, accountId, userId);
    return updateUser(tx, accountId, userId, { role: change.role, passwordHash });
  });
  if (!user) throw new ApiError('NOT_FOUND', 'user not found');
  // A new password or role ends the sessions signed in under the old one.
  await revokeUserSessions(deps.db, userId, new Date(deps.clock.now()).toISOString());
  return user;
}

export async function removeUser(deps: Core, accountId: string, userId: string): Promise<void> {
  const deleted = await inTransaction(deps.db, async (tx) => {
    await keepAnOwner(tx, accountId, userId);
    return deleteUser(tx, accountId, userId);
  });
  if (!deleted) throw new ApiError('NOT_FOUND', 'user not found');
  await revokeUserSessions(deps.db, userId, new Date(deps.clock.now()).toISOString());
}

/** Refuses to take the last owner away; call inside the transaction that makes the change. */
async function keepAnOwner(tx: Queryable, accountId: string, userId: string): Promise<void> {
  await lockAccountOwners(tx, accountId);
  if ((await findUserRole(tx, accountId, userId)) === 'owner' && (await countOwners(tx, accountId)) <= 1) {
    throw new ApiError('CONFLICT', 'an account keeps at least one owner');
  }
}
