// SQL of the player search: names by a case-insensitive prefix among the names seen on an
// account's live servers, one index range a server (player_names_search_idx), and what a result
// shows. Each takes the account and finds its live servers itself: one round trip less a query.
import type { Queryable } from '../store/db.ts';
import type { KnownIds } from './players.repo.ts';

export interface NameRow {
  platformId: string;
  name: string;
  /** lower(name), the order of the search. */
  key: string;
}

const liveServers = 'SELECT id FROM servers WHERE account_id = $1 AND revoked_at IS NULL';

/**
 * The first `limit` names starting with `prefix` (any case) on the account's live servers after
 * the position (key, platform id), in that order. Each server's names come from its index range
 * in order (ORDER BY ... USING ~<~ is the index's byte order), so a server gives at most `limit`
 * rows and no server's matches are read whole. The range starts at the later of the prefix and
 * the position (the index scan keeps the tighter bound) and ends before the prefix followed by the
 * last code point: in byte order (UTF-8's is the code points') every text in it starts with the
 * prefix, and only a name with U+10FFFF right after it (a noncharacter) is left out.
 */
export const namePageSql = `
  SELECT x.platform_id AS "platformId", x.name, x.key
  FROM (${liveServers}) AS s CROSS JOIN LATERAL (
    SELECT n.platform_id, n.name, lower(n.name) AS key FROM player_names n
    WHERE n.server_id = s.id AND lower(n.name) ~>=~ lower($2) AND lower(n.name) ~>=~ $3 AND lower(n.name) ~<~ (lower($2) || chr(1114111))
      AND ($4::text IS NULL OR lower(n.name) ~>~ $3 OR n.platform_id > $4)
    ORDER BY lower(n.name) USING ~<~, n.platform_id LIMIT $5) AS x
  ORDER BY x.key USING ~<~, x.platform_id LIMIT $5`;

export async function namePage(
  db: Queryable,
  accountId: string,
  prefix: string,
  after: { key: string; platformId: string } | null,
  limit: number,
): Promise<NameRow[]> {
  const { rows } = await db.query<NameRow>(namePageSql, [accountId, prefix, after?.key ?? '', after?.platformId ?? null, limit]);
  return rows;
}

/** Whether the player has totals on one of the account's live servers. */
export async function seenByAccount(db: Queryable, accountId: string, platformId: string): Promise<boolean> {
  const { rows } = await db.query<{ seen: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM server_players sp JOIN servers s ON s.id = sp.server_id
                    WHERE sp.platform_id = $2 AND s.account_id = $1 AND s.revoked_at IS NULL) AS seen`,
    [accountId, platformId],
  );
  return rows[0]!.seen;
}

export interface HitRow extends KnownIds {
  platformId: string;
  lastName: string | null;
  lastSeenAt: string | null;
  servers: { id: string; name: string }[];
}

/**
 * What a result shows of each player: the ids kept for them, and on the account's live servers
 * the newest name and sighting and the servers themselves. One query for the page.
 */
export async function hitRows(db: Queryable, accountId: string, platformIds: string[]): Promise<Map<string, HitRow>> {
  const { rows } = await db.query<HitRow>(
    `WITH seen AS (
       SELECT sp.platform_id, sp.name, greatest(sp.presence_at, sp.name_at) AS at, s.id, s.name AS server_name
       FROM unnest($2::text[]) AS w(id) JOIN server_players sp ON sp.platform_id = w.id
       JOIN servers s ON s.id = sp.server_id AND s.account_id = $1 AND s.revoked_at IS NULL)
     SELECT w.id AS "platformId", p.service_id AS "serviceId", p.dayz_id AS "dayzId", p.be_guid AS "beGuid",
            coalesce((SELECT array_agg(a.alias_id ORDER BY a.alias_id) FROM player_aliases a WHERE a.platform_id = w.id), '{}') AS aliases,
            (SELECT x.name FROM seen x WHERE x.platform_id = w.id ORDER BY x.at DESC NULLS LAST LIMIT 1) AS "lastName",
            (SELECT max(x.at) FROM seen x WHERE x.platform_id = w.id) AS "lastSeenAt",
            coalesce((SELECT json_agg(json_build_object('id', x.id, 'name', x.server_name) ORDER BY x.server_name, x.id)
                      FROM seen x WHERE x.platform_id = w.id), '[]') AS servers
     FROM unnest($2::text[]) AS w(id) LEFT JOIN players p ON p.platform_id = w.id`,
    [accountId, platformIds],
  );
  return new Map(rows.map((r) => [r.platformId, r]));
}
