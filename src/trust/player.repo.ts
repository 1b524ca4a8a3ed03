// SQL of the trust lookup: who an identifier names, chat-id links, and the evidence a score reads.
// Nothing here selects a submitter or a note.
import type { Queryable } from '../store/db.ts';
import type { IdentifierKind } from '../identities/id-forms.ts';
import { resolvePlatformId } from '../identities/resolve.ts';

export interface TrustPlayer {
  platformId: string;
  serviceId: string | null;
}

/** Links a chat-platform user id to a player (the chat `link` action, or an admin); a new link replaces the old. */
export async function linkChatUser(db: Queryable, chatUserId: string, platformId: string, at: string): Promise<void> {
  await db.query(
    `INSERT INTO player_links (chat_user_id, platform_id, linked_at) VALUES ($1, $2, $3)
     ON CONFLICT (chat_user_id) DO UPDATE SET platform_id = excluded.platform_id, linked_at = excluded.linked_at`,
    [chatUserId, platformId, at],
  );
}

async function platformIdOf(db: Queryable, kind: IdentifierKind, value: string): Promise<string | undefined> {
  switch (kind) {
    case 'serviceId':
      return (await db.query<{ p: string }>('SELECT platform_id AS p FROM players WHERE service_id = $1', [value])).rows[0]?.p;
    case 'battleyeGuid':
      return (await db.query<{ p: string }>('SELECT platform_id AS p FROM players WHERE be_guid = $1', [value])).rows[0]?.p;
    case 'chat':
      return (await db.query<{ p: string }>('SELECT platform_id AS p FROM player_links WHERE chat_user_id = $1', [value])).rows[0]?.p;
    default:
      return value;
  }
}

/**
 * The player an identifier names: a player the network has seen, or one with pool entries (such a
 * player has no service id yet). Undefined when unknown.
 */
export async function findTrustPlayer(db: Queryable, kind: IdentifierKind, value: string): Promise<TrustPlayer | undefined> {
  const id = await platformIdOf(db, kind, value);
  if (id === undefined) return undefined;
  const platformId = await resolvePlatformId(db, id);
  const { rows } = await db.query<TrustPlayer>({
    name: 'trust-player',
    text: `SELECT $1::text AS "platformId", (SELECT service_id FROM players WHERE platform_id = $1) AS "serviceId"
           WHERE EXISTS (SELECT 1 FROM players WHERE platform_id = $1) OR EXISTS (SELECT 1 FROM trust_entries WHERE platform_id = $1)`,
    values: [platformId],
  });
  return rows[0];
}

export interface PoolEvidence {
  bansActive: number;
  submissionsPending: number;
  overturns: number;
  /** Per community with no active entry: when (epoch ms) its newest expired entry ended. */
  expiredAtMs: number[];
  /** The soonest expiry of an active entry: the cached score is stale from then on. */
  nextExpiry: string | null;
}

/** What the pool says of a player, counted per community, at time `at`. */
export async function poolEvidence(db: Queryable, platformId: string, at: string): Promise<PoolEvidence> {
  const { rows } = await db.query<PoolEvidence>({
    name: 'trust-pool-evidence',
    text: `WITH e AS (
             SELECT account_id, status, expires_at, updated_at,
                    status = 'active' AND (expires_at IS NULL OR expires_at > $2) AS in_force,
                    status = 'expired' OR (status = 'active' AND expires_at <= $2) AS lapsed
             FROM trust_entries WHERE platform_id = $1)
           SELECT count(DISTINCT account_id) FILTER (WHERE in_force)::int AS "bansActive",
                  count(DISTINCT account_id) FILTER (WHERE status = 'pending')::int AS "submissionsPending",
                  count(DISTINCT account_id) FILTER (WHERE status = 'overturned')::int AS "overturns",
                  coalesce((SELECT array_agg((extract(epoch FROM ended) * 1000)::float8) FROM (
                    SELECT max(coalesce(expires_at, updated_at)) AS ended FROM e
                    WHERE lapsed AND account_id NOT IN (SELECT account_id FROM e WHERE in_force) GROUP BY account_id) x), '{}') AS "expiredAtMs",
                  min(expires_at) FILTER (WHERE in_force) AS "nextExpiry"
           FROM e`,
    values: [platformId, at],
  });
  return rows[0]!;
}

export interface PlayEvidence {
  playMinutes: number;
  serversSeen: number;
  kills: number;
  headshots: number;
  killDistanceSum: number;
  shotsFired: number;
  shotsHit: number;
}

/** The player's play across every server of the network. */
export async function playEvidence(db: Queryable, platformId: string): Promise<PlayEvidence> {
  const { rows } = await db.query<PlayEvidence>({
    name: 'trust-play-evidence',
    text: `SELECT floor(coalesce(sum(play_seconds), 0) / 60)::int AS "playMinutes", count(*)::int AS "serversSeen",
                  coalesce(sum(kills), 0)::int AS kills, coalesce(sum(headshots), 0)::int AS headshots,
                  coalesce(sum(kill_distance_sum), 0)::float8 AS "killDistanceSum",
                  coalesce(sum(shots_fired), 0)::float8 AS "shotsFired", coalesce(sum(shots_hit), 0)::float8 AS "shotsHit"
           FROM server_players WHERE platform_id = $1`,
    values: [platformId],
  });
  return rows[0]!;
}
