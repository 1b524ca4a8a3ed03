// SQL of the community ban pool. Submitter (account_id, submitted_by) and note are read only by the
// moderation listing; the functions behind the public lookup and the export never select them, and
// the public player page reads only the community's name, never the user who submitted or the note.
import type { TrustSubmission } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';
import type { ReasonCategory } from './score.ts';

export { reasonCategories } from './score.ts';
export type { ReasonCategory } from './score.ts';
export type EntryStatus = TrustSubmission['status'];

export type PoolEntry = TrustSubmission;

export interface NewSubmission {
  platformId: string;
  accountId: string;
  submittedBy: string;
  banId: string | null;
  category: ReasonCategory;
  reason: string;
  evidence: string[];
  note: string | null;
  expiresAt: string | null;
}

const columns = `id, platform_id AS "platformId", status, category, reason, evidence, ban_id AS "banId",
  account_id AS "accountId", submitted_by AS "submittedBy", note, created_at AS "createdAt",
  updated_at AS "updatedAt", expires_at AS "expiresAt", decided_at AS "decidedAt"`;

/** Inserts a pending submission; undefined when the ban already has an open submission or entry. */
export async function insertSubmission(db: Queryable, s: NewSubmission, at: string): Promise<PoolEntry | undefined> {
  const { rows } = await db.query<PoolEntry>(
    `INSERT INTO trust_entries (platform_id, account_id, submitted_by, ban_id, status, category, reason, evidence, note, created_at, updated_at, expires_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $9, $10)
     ON CONFLICT (ban_id) WHERE ban_id IS NOT NULL AND status IN ('pending', 'active') DO NOTHING
     RETURNING ${columns}`,
    [s.platformId, s.accountId, s.submittedBy, s.banId, s.category, s.reason, JSON.stringify(s.evidence), s.note, at, s.expiresAt],
  );
  return rows[0];
}

/** The moderation listing: every community's entries for moderators, or one community's own. */
/**
 * A page of submissions, newest first, each with its player's name as the submitting community
 * knows it: the name on its ban, else the one last seen on its servers.
 */
export async function listSubmissions(
  db: Queryable,
  filter: { accountId?: string; status?: EntryStatus },
  limit: number,
  offset: number,
): Promise<PoolEntry[]> {
  const { rows } = await db.query<PoolEntry>(
    `SELECT ${columns},
            coalesce((SELECT b.player_name FROM bans b WHERE b.id = e.ban_id), seen_player_name(e.account_id, e.platform_id)) AS "playerName"
     FROM trust_entries e
     WHERE ($1::uuid IS NULL OR account_id = $1) AND ($2::text IS NULL OR status = $2)
     ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`,
    [filter.accountId ?? null, filter.status ?? null, limit, offset],
  );
  return rows;
}

/** One community's own entries about a player (reason and note included: they are its own), newest first. */
export async function accountEntriesOf(db: Queryable, accountId: string, platformId: string): Promise<PoolEntry[]> {
  const { rows } = await db.query<PoolEntry>(
    `SELECT ${columns} FROM trust_entries WHERE platform_id = $1 AND account_id = $2 ORDER BY created_at DESC, id`,
    [platformId, accountId],
  );
  return rows;
}

/**
 * Moves an entry from one of `from` to `to`; undefined when it is not in one of those states.
 * Approving an entry whose expiry has passed makes it `expired` straight away.
 */
export async function transitionEntry(
  db: Queryable,
  id: string,
  from: EntryStatus[],
  to: EntryStatus,
  at: string,
): Promise<PoolEntry | undefined> {
  const { rows } = await db.query<PoolEntry>(
    `UPDATE trust_entries SET
       status = CASE WHEN $3 = 'active' AND expires_at <= $4 THEN 'expired' ELSE $3 END,
       updated_at = $4, decided_at = CASE WHEN status = 'pending' THEN $4::timestamptz ELSE decided_at END
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING ${columns}`,
    [id, from, to, at],
  );
  return rows[0];
}

/** Marks active entries whose expiry has passed as expired; returns their players. */
export async function expireDueEntries(db: Queryable, at: string, limit = 1000): Promise<string[]> {
  const { rows } = await db.query<{ platformId: string }>(
    `UPDATE trust_entries SET status = 'expired', updated_at = expires_at
     WHERE id IN (SELECT id FROM trust_entries WHERE status = 'active' AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING platform_id AS "platformId"`,
    [at, limit],
  );
  return rows.map((r) => r.platformId);
}

/** A ban of the account, as a submission reads it. */
export interface OwnBan {
  platformId: string;
  source: 'manual' | 'import' | 'cloud';
  expiresAt: string | null;
  liftedAt: string | null;
}

export async function banOfAccount(db: Queryable, accountId: string, banId: string): Promise<OwnBan | undefined> {
  const { rows } = await db.query<OwnBan>(
    `SELECT platform_id AS "platformId", source, expires_at AS "expiresAt", lifted_at AS "liftedAt"
     FROM bans WHERE id = $1 AND account_id = $2`,
    [banId, accountId],
  );
  return rows[0];
}

/** The sources of the account's bans of a player: a player banned only by copies is no evidence of its own. */
export async function banSourcesFor(db: Queryable, accountId: string, platformId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ source: string }>('SELECT DISTINCT source FROM bans WHERE account_id = $1 AND platform_id = $2', [
    accountId,
    platformId,
  ]);
  return new Set(rows.map((r) => r.source));
}

export async function entryStatus(db: Queryable, id: string): Promise<EntryStatus | undefined> {
  const { rows } = await db.query<{ status: EntryStatus }>('SELECT status FROM trust_entries WHERE id = $1', [id]);
  return rows[0]?.status;
}

/** A pool entry as the public player page shows it: the community and category, never who or why in its words. */
export interface PublicEntry {
  community: string;
  category: ReasonCategory;
  status: 'pending' | 'active' | 'expired' | 'overturned';
  submittedAt: string;
  decidedAt: string | null;
  expiresAt: string | null;
}

/** The player's entries that weigh in the score (rejected ones do not), as of `at`, newest first. */
export async function publicEntriesOf(db: Queryable, platformId: string, at: string): Promise<PublicEntry[]> {
  const { rows } = await db.query<PublicEntry>({
    name: 'trust-public-entries',
    text: `SELECT a.name AS community, e.category,
                  CASE WHEN e.status = 'active' AND e.expires_at <= $2 THEN 'expired' ELSE e.status END AS status,
                  e.created_at AS "submittedAt", e.decided_at AS "decidedAt", e.expires_at AS "expiresAt"
           FROM trust_entries e JOIN accounts a ON a.id = e.account_id
           WHERE e.platform_id = $1 AND e.status IN ('pending', 'active', 'expired', 'overturned')
           ORDER BY e.created_at DESC, e.id`,
    values: [platformId, at],
  });
  return rows;
}
