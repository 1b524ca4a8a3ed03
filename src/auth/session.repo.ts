// SQL for login sessions; the JWT's jti is the session id.
import type { Queryable } from '../store/db.ts';
import type { Role } from './permissions.ts';

export interface SessionPrincipal {
  sessionId: string;
  userId: string;
  accountId: string;
  username: string;
  role: Role;
  isOperator: boolean;
}

export async function insertSession(db: Queryable, sessionId: string, userId: string, createdAt: string, expiresAt: string): Promise<void> {
  await db.query('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    sessionId,
    userId,
    createdAt,
    expiresAt,
  ]);
}

/** The user behind a live session: not revoked, not expired, user not deleted. */
export async function findLiveSession(db: Queryable, sessionId: string, nowIso: string): Promise<SessionPrincipal | undefined> {
  const { rows } = await db.query<SessionPrincipal>({
    name: 'live-session',
    text: `SELECT s.id AS "sessionId", u.id AS "userId", u.account_id AS "accountId", u.username, u.role, a.is_operator AS "isOperator"
           FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = u.account_id
           WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.deleted_at IS NULL`,
    values: [sessionId, nowIso],
  });
  return rows[0];
}

export async function revokeSession(db: Queryable, sessionId: string, nowIso: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [sessionId, nowIso]);
}

export async function revokeUserSessions(db: Queryable, userId: string, nowIso: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = coalesce(revoked_at, $2) WHERE user_id = $1', [userId, nowIso]);
}
