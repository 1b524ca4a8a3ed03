// SQL for controller users.
import type { User } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';
import type { Role } from '../auth/permissions.ts';
import { canonicalUsername } from './username.ts';

export type { User };

export interface UserWithSecret extends User {
  passwordHash: string;
  isOperator: boolean;
}

const columns = 'u.id, u.account_id AS "accountId", u.username, u.role, u.created_at AS "createdAt"';

export async function insertUser(db: Queryable, accountId: string, username: string, passwordHash: string, role: Role): Promise<User> {
  const { rows } = await db.query<User>(
    `INSERT INTO users AS u (account_id, username, username_key, password_hash, role) VALUES ($1, $2, $3, $4, $5) RETURNING ${columns}`,
    [accountId, username, canonicalUsername(username), passwordHash, role],
  );
  return rows[0]!;
}

/** The live user a sign-in name means, by its canonical form (src/users/username.ts). */
export async function findUserForLogin(db: Queryable, username: string): Promise<UserWithSecret | undefined> {
  const { rows } = await db.query<UserWithSecret>(
    `SELECT ${columns}, u.password_hash AS "passwordHash", a.is_operator AS "isOperator"
     FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.username_key = $1 AND u.deleted_at IS NULL`,
    [canonicalUsername(username)],
  );
  return rows[0];
}

export async function countUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]!.n;
}

export async function listUsers(db: Queryable, accountId: string): Promise<User[]> {
  const { rows } = await db.query<User>(
    `SELECT ${columns} FROM users u WHERE u.account_id = $1 AND u.deleted_at IS NULL ORDER BY u.created_at, u.id`,
    [accountId],
  );
  return rows;
}

export async function updateUser(
  db: Queryable,
  accountId: string,
  userId: string,
  change: { role?: Role; passwordHash?: string },
): Promise<User | undefined> {
  const { rows } = await db.query<User>(
    `UPDATE users u SET role = coalesce($3, role), password_hash = coalesce($4, password_hash)
     WHERE u.id = $1 AND u.account_id = $2 AND u.deleted_at IS NULL RETURNING ${columns}`,
    [userId, accountId, change.role ?? null, change.passwordHash ?? null],
  );
  return rows[0];
}

export async function deleteUser(db: Queryable, accountId: string, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE users SET deleted_at = now() WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL', [
    userId,
    accountId,
  ]);
  return rowCount === 1;
}

export async function countOwners(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM users WHERE account_id = $1 AND role = 'owner' AND deleted_at IS NULL",
    [accountId],
  );
  return rows[0]!.n;
}

export async function findUserRole(db: Queryable, accountId: string, userId: string): Promise<Role | undefined> {
  const { rows } = await db.query<{ role: Role }>('SELECT role FROM users WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL', [
    userId,
    accountId,
  ]);
  return rows[0]?.role;
}

/** Serialises first-run setup, so two concurrent setups cannot both see "no user yet". */
export async function lockUserCreation(db: Queryable): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('setup', 0))");
}

/** Serialises the owner checks of one account (in a transaction), so two owners removing or
 * demoting each other at once cannot both pass the "another owner remains" check. */
export async function lockAccountOwners(db: Queryable, accountId: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtextextended('owners:' || $1, 0))", [accountId]);
}
