// SQL of the player profile: the ids known for a player, and what the account's servers saw of
// them (totals, names, sessions, newest kills). Every read of a server's records takes the
// account's server ids, so nothing of another community's servers is ever read.
import type { Kill } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export interface KnownIds {
  serviceId: string | null;
  dayzId: string | null;
  beGuid: string | null;
  /** Ids that resolve to the player: console ids linked to it, DayZ IDs merged into it. */
  aliases: string[];
}

/** The players rows and aliases of these players; a player with neither is absent. */
export async function knownIdsOf(db: Queryable, platformIds: string[]): Promise<Map<string, KnownIds>> {
  const { rows } = await db.query<KnownIds & { platformId: string }>(
    `SELECT w.id AS "platformId", p.service_id AS "serviceId", p.dayz_id AS "dayzId", p.be_guid AS "beGuid",
            coalesce((SELECT array_agg(a.alias_id ORDER BY a.alias_id) FROM player_aliases a WHERE a.platform_id = w.id), '{}') AS aliases
     FROM unnest($1::text[]) AS w(id) LEFT JOIN players p ON p.platform_id = w.id
     WHERE p.platform_id IS NOT NULL OR EXISTS (SELECT 1 FROM player_aliases a WHERE a.platform_id = w.id)`,
    [platformIds],
  );
  return new Map(rows.map(({ platformId, ...ids }) => [platformId, ids]));
}

/** Chat-platform user ids linked to the player. */
export async function chatIdsOf(db: Queryable, platformId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT chat_user_id AS id FROM player_links WHERE platform_id = $1 ORDER BY chat_user_id',
    [platformId],
  );
  return rows.map((r) => r.id);
}

/** Whether the account holds a record of its own about the player under any of these ids: a ban, a queue entry, a note or a watch flag. */
export async function hasAccountRecords(db: Queryable, accountId: string, platformIds: string[]): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM bans WHERE account_id = $1 AND (platform_id = ANY($2::text[]) OR dayz_id = ANY($2::text[])))
         OR EXISTS (SELECT 1 FROM priority_queue WHERE account_id = $1 AND platform_id = ANY($2::text[]))
         OR EXISTS (SELECT 1 FROM player_notes WHERE platform_id = ANY($2::text[]) AND account_id = $1)
         OR EXISTS (SELECT 1 FROM player_watches WHERE account_id = $1 AND platform_id = ANY($2::text[])) AS found`,
    [accountId, platformIds],
  );
  return rows[0]!.found;
}

export interface ServerTotalsRow {
  serverId: string;
  serverName: string;
  name: string | null;
  kills: number;
  deaths: number;
  headshots: number;
  playSeconds: number;
  onlineAt: string | null;
  lastSeenAt: string | null;
}

/** The player's totals on each of these servers, the most recently seen first. */
export async function serverTotalsOf(db: Queryable, serverIds: string[], platformId: string): Promise<ServerTotalsRow[]> {
  const { rows } = await db.query<ServerTotalsRow>(
    `SELECT sp.server_id AS "serverId", s.name AS "serverName", sp.name, sp.kills, sp.deaths, sp.headshots, sp.play_seconds AS "playSeconds",
            sp.online_at AS "onlineAt", greatest(sp.presence_at, sp.name_at) AS "lastSeenAt"
     FROM server_players sp JOIN servers s ON s.id = sp.server_id
     WHERE sp.platform_id = $2 AND sp.server_id = ANY($1::uuid[])
     ORDER BY greatest(sp.presence_at, sp.name_at) DESC NULLS LAST, s.name, sp.server_id`,
    [serverIds, platformId],
  );
  return rows;
}

export interface NameSeen {
  name: string;
  firstSeenAt: string;
  lastSeenAt: string;
}

/**
 * Every name the player had on these servers, the most recently seen first. A name a server's
 * totals still hold was last seen at their newest naming event (name_at), which the stored row
 * does not follow.
 */
export async function namesSeenOf(db: Queryable, serverIds: string[], platformId: string): Promise<NameSeen[]> {
  const { rows } = await db.query<NameSeen>(
    `SELECT n.name, min(n.first_seen_at) AS "firstSeenAt",
            greatest(max(n.last_seen_at), max(sp.name_at) FILTER (WHERE sp.name = n.name)) AS "lastSeenAt"
     FROM player_names n LEFT JOIN server_players sp ON sp.server_id = n.server_id AND sp.platform_id = n.platform_id
     WHERE n.server_id = ANY($1::uuid[]) AND n.platform_id = $2
     GROUP BY n.name ORDER BY 3 DESC, n.name`,
    [serverIds, platformId],
  );
  return rows;
}

export interface SessionRow {
  serverId: string;
  startedAt: string;
  endedAt: string | null;
}

/** The player's last `perServer` sessions on each of these servers, newest first. */
export async function lastSessionsOf(db: Queryable, serverIds: string[], platformId: string, perServer: number): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id AS "serverId", x.started_at AS "startedAt", x.ended_at AS "endedAt"
     FROM unnest($1::uuid[]) AS s(id) CROSS JOIN LATERAL (
       SELECT q.started_at, q.ended_at FROM player_sessions q WHERE q.server_id = s.id AND q.platform_id = $2
       ORDER BY q.started_at DESC LIMIT $3) AS x
     ORDER BY x.started_at DESC`,
    [serverIds, platformId, perServer],
  );
  return rows;
}

export type RecentKill = Kill & { serverId: string; side: 'kill' | 'death' };

const killColumns = `k.ts, k.killer_platform_id AS "killerPlatformId", k.killer_name AS "killerName",
  k.victim_platform_id AS "victimPlatformId", k.victim_name AS "victimName", k.weapon, k.distance,
  k.is_headshot AS "isHeadshot", k.hit_zone AS "hitZone"`;

/**
 * The player's newest kills and deaths on these servers, by server and side, newest first, found from the times their
 * totals keep (recent_kills_at, recent_deaths_at): a kill is stored at its event's time or within a
 * second after it (kills of one microsecond are spread), so each is one probe of the kills' key.
 */
export async function recentKillsOf(db: Queryable, serverIds: string[], platformId: string): Promise<RecentKill[]> {
  const { rows } = await db.query<RecentKill>(
    `SELECT DISTINCT ON (sp.server_id, w.side, k.ts) sp.server_id AS "serverId", w.side, ${killColumns}
     FROM server_players sp
     CROSS JOIN LATERAL (SELECT 'kill' AS side, t FROM unnest(sp.recent_kills_at) AS t
                         UNION ALL SELECT 'death', t FROM unnest(sp.recent_deaths_at) AS t) AS w
     CROSS JOIN LATERAL (SELECT * FROM kills k WHERE k.server_id = sp.server_id AND k.ts >= w.t AND k.ts < w.t + interval '1 second'
                           AND CASE w.side WHEN 'kill' THEN k.killer_platform_id ELSE k.victim_platform_id END = sp.platform_id
                         ORDER BY k.ts LIMIT 1) AS k
     WHERE sp.platform_id = $2 AND sp.server_id = ANY($1::uuid[])
     ORDER BY sp.server_id, w.side, k.ts DESC`,
    [serverIds, platformId],
  );
  return rows;
}
