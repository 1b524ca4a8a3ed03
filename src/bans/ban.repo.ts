// SQL of an account's bans: create, read, search, change, lift, and the per-server sync records.
import type { Checked } from '../http/schemas.ts';
import type { Queryable } from '../store/db.ts';

export type BanSource = 'manual' | 'import' | 'cloud';

export interface NewBan {
  id?: string;
  platformId: string;
  /** The DayZ ID of a Steam64 ban (null for a DayZ-ID or console ban). */
  dayzId?: string | null;
  playerName?: string | null;
  reason?: string | null;
  source: BanSource;
  bannedAt?: string;
  expiresAt?: string | null;
  createdBy?: { id: string | null; name: string | null } | null;
  importedFrom?: string | null;
}

export interface BanRecord {
  id: string;
  accountId: string;
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: BanSource;
  bannedAt: string;
  expiresAt: string | null;
  liftedAt: string | null;
  createdById: string | null;
  createdByName: string | null;
  liftedById: string | null;
  liftedByName: string | null;
  importedFrom: string | null;
  updatedAt: string | null;
}

const columns = `id, account_id AS "accountId", platform_id AS "platformId", player_name AS "playerName", reason, source,
  banned_at AS "bannedAt", expires_at AS "expiresAt", lifted_at AS "liftedAt", created_by_id AS "createdById",
  created_by_name AS "createdByName", lifted_by_id AS "liftedById", lifted_by_name AS "liftedByName",
  imported_from AS "importedFrom", updated_at AS "updatedAt"`;

/** Inserts a ban (a ban with a known id is kept as it is); returns its id. */
export async function insertBan(db: Queryable, accountId: string, ban: NewBan): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO bans (id, account_id, platform_id, player_name, reason, source, banned_at, expires_at, dayz_id, created_by_id, created_by_name, imported_from)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()), $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET id = excluded.id RETURNING id`,
    [
      ban.id ?? null,
      accountId,
      ban.platformId,
      ban.playerName ?? null,
      ban.reason ?? null,
      ban.source,
      ban.bannedAt ?? null,
      ban.expiresAt ?? null,
      ban.dayzId ?? null,
      ban.createdBy?.id ?? null,
      ban.createdBy?.name ?? null,
      ban.importedFrom ?? null,
    ],
  );
  return rows[0]!.id;
}

/** Serialises ban creation for one player of one account until the transaction ends. */
export async function lockPlayerBans(db: Queryable, accountId: string, playerKey: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ban:${accountId}:${playerKey}`]);
}

export async function findBan(db: Queryable, accountId: string, banId: string): Promise<BanRecord | undefined> {
  const { rows } = await db.query<BanRecord>(`SELECT ${columns} FROM bans WHERE id = $1 AND account_id = $2`, [banId, accountId]);
  return rows[0];
}

/** A ban of any account, by its shareable id (what an import copies). */
export async function findSharedBan(db: Queryable, banId: string): Promise<BanRecord | undefined> {
  const { rows } = await db.query<BanRecord>(`SELECT ${columns} FROM bans WHERE id = $1`, [banId]);
  return rows[0];
}

/**
 * The account's ban of a player that is in force at `nowIso` (not lifted, not expired), if any: under
 * any of the ids given (a Steam64 and its DayZ ID), or a Steam64 ban whose DayZ ID is one of them.
 */
export async function activeBanOf(db: Queryable, accountId: string, platformIds: string[], nowIso: string): Promise<BanRecord | undefined> {
  const { rows } = await db.query<BanRecord>(
    `SELECT ${columns} FROM bans WHERE account_id = $1 AND (platform_id = ANY($2::text[]) OR dayz_id = ANY($2::text[])) AND lifted_at IS NULL
       AND (expires_at IS NULL OR expires_at > $3::timestamptz) ORDER BY banned_at DESC LIMIT 1`,
    [accountId, platformIds, nowIso],
  );
  return rows[0];
}

/** The account's bans of a player under any of these ids (or a Steam64 ban whose DayZ ID is one), lifted ones too, newest first. */
export async function bansOfPlayer(db: Queryable, accountId: string, platformIds: string[], limit: number): Promise<BanRecord[]> {
  const { rows } = await db.query<BanRecord>(
    `SELECT ${columns} FROM bans WHERE account_id = $1 AND (platform_id = ANY($2::text[]) OR dayz_id = ANY($2::text[]))
     ORDER BY banned_at DESC, id LIMIT $3`,
    [accountId, platformIds, limit],
  );
  return rows;
}

export type BanStatus = 'active' | 'expired' | 'lifted';

export type BanSearch = Checked<'query-ban-search.json'>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The account's bans matching the search, newest first, with the total count of matches. */
export async function searchBans(
  db: Queryable,
  accountId: string,
  search: BanSearch,
  nowIso: string,
): Promise<{ bans: BanRecord[]; total: number }> {
  const { rows } = await db.query<BanRecord & { total: number }>(
    `SELECT ${columns}, count(*) OVER () AS total FROM bans
     WHERE account_id = $1
       AND ($2::text IS NULL OR platform_id = $2 OR dayz_id = $2)
       AND ($3::text IS NULL OR player_name ILIKE '%' || $3 || '%')
       AND (CASE $4::text
              WHEN 'active' THEN lifted_at IS NULL AND (expires_at IS NULL OR expires_at > $5::timestamptz)
              WHEN 'expired' THEN lifted_at IS NULL AND expires_at <= $5::timestamptz
              WHEN 'lifted' THEN lifted_at IS NOT NULL
              ELSE true END)
     ORDER BY banned_at DESC, id LIMIT $6 OFFSET $7`,
    [
      accountId,
      search.platformId ?? null,
      search.name === undefined ? null : escapeLike(search.name),
      search.status ?? null,
      nowIso,
      search.limit,
      search.offset,
    ],
  );
  const total = rows[0]?.total ?? 0;
  return { bans: rows.map(({ total: _, ...ban }) => ban), total };
}

export interface BanChange {
  playerName?: string | null;
  reason?: string | null;
  /** Set when the expiry changes (null: permanent). */
  expiresAt?: string | null;
}

/** Changes the given fields of a ban that is not lifted; undefined when there is none. */
export async function updateBan(
  db: Queryable,
  accountId: string,
  banId: string,
  change: BanChange,
  atIso: string,
): Promise<BanRecord | undefined> {
  const { rows } = await db.query<BanRecord>(
    `UPDATE bans SET
       player_name = CASE WHEN $3 THEN $4 ELSE player_name END,
       reason = CASE WHEN $5 THEN $6 ELSE reason END,
       expires_at = CASE WHEN $7 THEN $8::timestamptz ELSE expires_at END,
       updated_at = $9
     WHERE id = $1 AND account_id = $2 AND lifted_at IS NULL RETURNING ${columns}`,
    [
      banId,
      accountId,
      'playerName' in change,
      change.playerName ?? null,
      'reason' in change,
      change.reason ?? null,
      'expiresAt' in change,
      change.expiresAt ?? null,
      atIso,
    ],
  );
  return rows[0];
}

/** Lifts a ban (kept in history); undefined when the account has no such ban not yet lifted. */
export async function liftBan(
  db: Queryable,
  accountId: string,
  banId: string,
  liftedAt: string,
  by: { id: string | null; name: string | null } = { id: null, name: null },
): Promise<BanRecord | undefined> {
  const { rows } = await db.query<BanRecord>(
    `UPDATE bans SET lifted_at = $3, lifted_by_id = $4, lifted_by_name = $5
     WHERE id = $1 AND account_id = $2 AND lifted_at IS NULL RETURNING ${columns}`,
    [banId, accountId, liftedAt, by.id, by.name],
  );
  return rows[0];
}

/** After a merge moved bans to a Steam64: they carry its DayZ ID like every Steam64 ban. */
export async function fillDayzIds(db: Queryable, steam64: string, dayzId: string): Promise<void> {
  await db.query('UPDATE bans SET dayz_id = $2 WHERE platform_id = $1 AND dayz_id IS NULL', [steam64, dayzId]);
}

export interface ActiveBanRow {
  id: string;
  platformId: string;
  dayzId: string | null;
  reason: string | null;
  expiresAt: string | null;
}

/** A page of the account's bans in force at `nowIso`, in id order, after `afterId`. */
export async function activeBansPage(
  db: Queryable,
  accountId: string,
  nowIso: string,
  afterId: string | null,
  limit: number,
): Promise<ActiveBanRow[]> {
  const { rows } = await db.query<ActiveBanRow>({
    name: 'active-bans-page',
    text: `SELECT id, platform_id AS "platformId", dayz_id AS "dayzId", reason, expires_at AS "expiresAt" FROM bans
           WHERE account_id = $1 AND lifted_at IS NULL AND (expires_at IS NULL OR expires_at > $2::timestamptz)
             AND id > COALESCE($3::uuid, '00000000-0000-0000-0000-000000000000') ORDER BY id LIMIT $4`,
    values: [accountId, nowIso, afterId, limit],
  });
  return rows;
}
