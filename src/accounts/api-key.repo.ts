// SQL for Data API keys; only the SHA-256 of a key is ever stored.
import type { Queryable } from '../store/db.ts';

export type ApiKeyTier = 'standard' | 'partner';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  tier: ApiKeyTier;
  createdAt: string;
  revokedAt: string | null;
}

const columns = 'id, account_id AS "accountId", name, tier, created_at AS "createdAt", revoked_at AS "revokedAt"';

export async function insertApiKey(
  db: Queryable,
  accountId: string,
  name: string,
  tier: ApiKeyTier,
  keyHash: Buffer,
): Promise<ApiKeyRecord> {
  const { rows } = await db.query<ApiKeyRecord>(
    `INSERT INTO api_keys (account_id, name, tier, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${columns}`,
    [accountId, name, tier, keyHash],
  );
  return rows[0]!;
}

export async function findActiveApiKeyByHash(db: Queryable, keyHash: Buffer): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRecord>({
    name: 'api-key-by-hash',
    text: `SELECT ${columns} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    values: [keyHash],
  });
  return rows[0];
}

/** Revokes a live key of the account; returns its hash so caches can drop it, or undefined if none (or already revoked). */
export async function revokeApiKeyRow(db: Queryable, accountId: string, keyId: string): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ keyHash: Buffer }>(
    `UPDATE api_keys SET revoked_at = now()
      WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL RETURNING key_hash AS "keyHash"`,
    [keyId, accountId],
  );
  return rows[0]?.keyHash;
}

export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRecord>(`SELECT ${columns} FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC`, [
    accountId,
  ]);
  return rows;
}
