// SQL of player identities: resolving a DayZ ID or linked console id to its Steam64, and the
// statements of a merge. Every function runs in the caller's transaction.
import type { Queryable } from '../store/db.ts';

const identitiesLockKey = 'player-identities';

/**
 * Merges take this lock exclusively, batches that carry ids other than a Steam64 take it shared
 * (src/ingest/sql/apply-batch.sql, by this key): a batch never resolves an id against links a merge
 * is still writing.
 */
export async function lockIdentitiesExclusive(db: Queryable): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [identitiesLockKey]);
}

/** alias (a DayZ ID of a known Steam64, or a linked id) -> the Steam64 it resolves to. */
export async function resolveAliases(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ alias: string; platformId: string }>({
    name: 'resolve-aliases',
    text: `SELECT p.dayz_id AS alias, p.platform_id AS "platformId" FROM unnest($1::text[]) AS wanted(id) JOIN players p ON p.dayz_id = wanted.id
           UNION ALL
           SELECT a.alias_id, a.platform_id FROM unnest($1::text[]) AS wanted(id) JOIN player_aliases a ON a.alias_id = wanted.id`,
    values: [ids],
  });
  return new Map(rows.map((r) => [r.alias, r.platformId]));
}

/** Of these ids, the ones that are a player of their own (a row keyed by that id). */
export async function existingPlayers(db: Queryable, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>({
    name: 'existing-players',
    text: 'SELECT p.platform_id AS id FROM unnest($1::text[]) AS wanted(id) JOIN players p ON p.platform_id = wanted.id',
    values: [ids],
  });
  return new Set(rows.map((r) => r.id));
}

export interface PlayerRow {
  platformId: string;
  name: string;
  firstSeenAt: string;
  lastSeenAt: string;
}

/** The rows of these players, locked until the transaction ends. */
export async function lockPlayers(db: Queryable, ids: string[]): Promise<Map<string, PlayerRow>> {
  const { rows } = await db.query<PlayerRow>(
    `SELECT platform_id AS "platformId", name, first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt"
     FROM players WHERE platform_id = ANY($1::text[]) ORDER BY platform_id FOR UPDATE`,
    [ids],
  );
  return new Map(rows.map((r) => [r.platformId, r]));
}

/** Servers where the player has totals. */
export async function serversOfPlayer(db: Queryable, platformId: string): Promise<string[]> {
  const { rows } = await db.query<{ serverId: string }>(
    'SELECT server_id AS "serverId" FROM server_players WHERE platform_id = $1 ORDER BY server_id',
    [platformId],
  );
  return rows.map((r) => r.serverId);
}

/** Accounts owning these servers, or holding a ban of the player. */
export async function accountsConcerned(db: Queryable, serverIds: string[], platformId: string): Promise<string[]> {
  const { rows } = await db.query<{ accountId: string }>(
    `SELECT account_id AS "accountId" FROM servers WHERE id = ANY($1::uuid[])
     UNION SELECT account_id FROM bans WHERE platform_id = $2 ORDER BY 1`,
    [serverIds, platformId],
  );
  return rows.map((r) => r.accountId);
}

/** Creates the Steam64's player row (with its DayZ ID and GUID) or widens its seen window. */
export async function upsertMergedPlayer(db: Queryable, row: PlayerRow, dayzId: string, beGuid: string): Promise<void> {
  await db.query(
    `INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (platform_id) DO UPDATE SET
       name = CASE WHEN excluded.last_seen_at > p.last_seen_at THEN excluded.name ELSE p.name END,
       first_seen_at = least(p.first_seen_at, excluded.first_seen_at),
       last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at)`,
    [row.platformId, row.name, row.firstSeenAt, row.lastSeenAt, dayzId, beGuid],
  );
}

/**
 * Moves kills (both sides), bans, trust pool entries (their change moves them to the end of the
 * export feed, so partners learn the new id) and chat links from one id to another; deletes the old
 * player row.
 */
export async function moveRecords(db: Queryable, fromId: string, intoId: string, serverIds: string[], atIso: string): Promise<void> {
  await db.query('UPDATE kills SET killer_platform_id = $2 WHERE server_id = ANY($3::uuid[]) AND killer_platform_id = $1', [
    fromId,
    intoId,
    serverIds,
  ]);
  await db.query('UPDATE kills SET victim_platform_id = $2 WHERE server_id = ANY($3::uuid[]) AND victim_platform_id = $1', [
    fromId,
    intoId,
    serverIds,
  ]);
  await db.query('UPDATE bans SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
  await db.query('UPDATE trust_entries SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
  await db.query('UPDATE player_links SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
  await db.query('UPDATE player_aliases SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
  await db.query('DELETE FROM server_players WHERE platform_id = $1 AND server_id = ANY($2::uuid[])', [fromId, serverIds]);
  await db.query('DELETE FROM players WHERE platform_id = $1', [fromId]);
  await db.query(
    `INSERT INTO player_aliases (alias_id, platform_id, linked_at) VALUES ($1, $2, $3)
     ON CONFLICT (alias_id) DO UPDATE SET platform_id = excluded.platform_id`,
    [fromId, intoId, atIso],
  );
}

/**
 * A merge changes the servers' totals as a batch does, so it bumps their derived-state version too:
 * if the rebuild after the commit never happens, the reconcile job sees the lag and rebuilds them.
 */
export async function bumpDerivedVersions(db: Queryable, serverIds: string[]): Promise<void> {
  await db.query('UPDATE servers SET derived_version = derived_version + 1 WHERE id = ANY($1::uuid[])', [serverIds]);
}
