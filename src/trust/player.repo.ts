// SQL of the trust lookup: who an identifier names, chat-id links, and the evidence a score reads.
// Nothing here selects a submitter or a note.
import type { Queryable } from '../store/db.ts';
import type { IdentifierKind } from '../identities/id-forms.ts';
import { resolvePlatformId } from '../identities/resolve.ts';
import type { ReasonCategory } from './score.ts';

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

/** The platform id an identifier names, before resolution (a service UUID, GUID or chat id is looked up); undefined when none. */
export async function platformIdOf(db: Queryable, kind: IdentifierKind, value: string): Promise<string | undefined> {
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

/** A pool entry about the player, as the score reads it (never its submitter, reason text or note). */
export interface EntryEvidence {
  accountId: string;
  status: 'pending' | 'active' | 'overturned' | 'expired';
  category: ReasonCategory;
  createdAt: string;
  expiresAt: string | null;
  updatedAt: string;
}

/** The player's play on one community's servers. */
export interface PlayEvidence {
  accountId: string;
  playSeconds: number;
  servers: number;
  kills: number;
  headshots: number;
  killDistanceSum: number;
  shotsFired: number;
  shotsHit: number;
}

/** The player's pool entries (rejected ones say nothing) and play, per community. */
export async function communityEvidence(db: Queryable, platformId: string): Promise<{ entries: EntryEvidence[]; play: PlayEvidence[] }> {
  const [entries, play] = await Promise.all([
    db.query<EntryEvidence>({
      name: 'trust-entry-evidence',
      text: `SELECT account_id AS "accountId", status, category, created_at AS "createdAt", expires_at AS "expiresAt", updated_at AS "updatedAt"
             FROM trust_entries WHERE platform_id = $1 AND status <> 'rejected'`,
      values: [platformId],
    }),
    db.query<PlayEvidence>({
      name: 'trust-play-evidence',
      text: `SELECT s.account_id AS "accountId", coalesce(sum(sp.play_seconds), 0)::float8 AS "playSeconds", count(*)::int AS servers,
                    coalesce(sum(sp.kills), 0)::int AS kills, coalesce(sum(sp.headshots), 0)::int AS headshots,
                    coalesce(sum(sp.kill_distance_sum), 0)::float8 AS "killDistanceSum",
                    coalesce(sum(sp.shots_fired), 0)::float8 AS "shotsFired", coalesce(sum(sp.shots_hit), 0)::float8 AS "shotsHit"
             FROM server_players sp JOIN servers s ON s.id = sp.server_id WHERE sp.platform_id = $1 GROUP BY s.account_id`,
      values: [platformId],
    }),
  ]);
  return { entries: entries.rows, play: play.rows };
}
