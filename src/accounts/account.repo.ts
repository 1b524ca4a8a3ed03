// SQL for accounts (communities).
import type { Queryable } from '../store/db.ts';

export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

/** Inserts an account (created now, or at `createdAt`); with a known id, an existing account of that id is returned unchanged. */
export async function insertAccount(db: Queryable, name: string, id?: string, createdAt?: string): Promise<Account> {
  const { rows } = await db.query<Account>(
    `INSERT INTO accounts (id, name, created_at) VALUES (coalesce($2::uuid, gen_random_uuid()), $1, coalesce($3::timestamptz, now()))
     ON CONFLICT (id) DO UPDATE SET id = excluded.id RETURNING id, name, created_at AS "createdAt"`,
    [name, id ?? null, createdAt ?? null],
  );
  return rows[0]!;
}

export async function findAccount(db: Queryable, id: string): Promise<Account | undefined> {
  const { rows } = await db.query<Account>('SELECT id, name, created_at AS "createdAt" FROM accounts WHERE id = $1', [id]);
  return rows[0];
}

export async function markOperatorAccount(db: Queryable, accountId: string): Promise<void> {
  await db.query('UPDATE accounts SET is_operator = true WHERE id = $1', [accountId]);
}

/** The operator's account (the first one made by setup), if setup ran. */
export async function operatorAccountId(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts WHERE is_operator ORDER BY created_at, id LIMIT 1');
  return rows[0]?.id;
}

/** Every account, oldest first (the operator's is the first), for the operator CLI and dashboard. */
export async function listAccounts(db: Queryable): Promise<(Account & { isOperator: boolean; servers: number })[]> {
  const { rows } = await db.query<Account & { isOperator: boolean; servers: number }>(
    `SELECT a.id, a.name, a.created_at AS "createdAt", a.is_operator AS "isOperator",
            (SELECT count(*)::int FROM servers s WHERE s.account_id = a.id AND s.revoked_at IS NULL) AS servers
     FROM accounts a ORDER BY a.created_at, a.id`,
  );
  return rows;
}
