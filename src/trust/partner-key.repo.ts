// SQL of partner keys (the export feed's credentials); only the SHA-256 of a key is stored.
import type { PartnerKey } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export type PartnerTier = PartnerKey['tier'];

export type { PartnerKey };

const columns = 'id, name, tier, created_at AS "createdAt", revoked_at AS "revokedAt"';

export async function insertPartnerKey(db: Queryable, name: string, tier: PartnerTier, keyHash: Buffer, at: string): Promise<PartnerKey> {
  const { rows } = await db.query<PartnerKey>(
    `INSERT INTO partner_keys (name, tier, key_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING ${columns}`,
    [name, tier, keyHash, at],
  );
  return rows[0]!;
}

export async function activePartnerKeyByHash(db: Queryable, keyHash: Buffer): Promise<PartnerKey | undefined> {
  const { rows } = await db.query<PartnerKey>({
    name: 'partner-key-by-hash',
    text: `SELECT ${columns} FROM partner_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    values: [keyHash],
  });
  return rows[0];
}

export async function listPartnerKeys(db: Queryable): Promise<PartnerKey[]> {
  return (await db.query<PartnerKey>(`SELECT ${columns} FROM partner_keys ORDER BY created_at DESC, id`)).rows;
}

/** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
export async function revokePartnerKey(db: Queryable, id: string, at: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE partner_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [id, at]);
  return rowCount === 1;
}
