// SQL of the export feed: pool entries in the order of the transactions that last changed them,
// only below the oldest transaction still running (a later commit can land only above it), and
// the marks that let a partner resume with `since`. No submitter, no note.
import type { Queryable } from '../store/db.ts';
import { viewPositionSql } from '../store/read-view.ts';
import type { TrustExportRow } from '../http/schema-types.ts';

export type ExportRow = TrustExportRow;
export type ExportStatus = ExportRow['status'];

/** A feed position: after the row (xid, id); `inclusive` also takes rows of transaction xid itself. */
export interface FeedPosition {
  xid: string;
  id: string;
  inclusive: boolean;
}

export interface FeedPage {
  rows: (ExportRow & { xid: string })[];
  /** The oldest transaction still running when the page was read: every row below it was served or skipped. */
  horizon: string;
  /** The statement's start, earlier than its snapshot: where a resume of a finished read begins. */
  readAt: string;
  /** The newest WAL position the page's view can hold (src/store/read-view.ts): later pages read from at least it. */
  viewLsn: string;
}

// The horizon, the start time and the view's position come from the same statement as the rows (an
// empty page still answers them): a horizon read by a later statement could lie above rows this one
// did not see. The statement runs on the primary or on a replica alike.
const select = (op: '>' | '>=') => `
  WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon, ${viewPositionSql} AS view_lsn)
  SELECT h.horizon::text AS horizon, h.view_lsn::text AS "viewLsn", statement_timestamp() AS "readAt", r.*
  FROM h LEFT JOIN LATERAL (
    SELECT t.id, t.platform_id AS "platformId", p.service_id AS "serviceId", t.status, t.reason, t.category,
           t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.expires_at AS "expiresAt", t.change_xid::text AS xid
    FROM trust_entries t LEFT JOIN players p ON p.platform_id = t.platform_id
    WHERE (t.change_xid, t.id) ${op} ($1::xid8, $2::uuid) AND t.change_xid < h.horizon AND t.status = ANY($3::text[])
    ORDER BY t.change_xid, t.id LIMIT $4) r ON true`;
const after = select('>');
const from = select('>=');

type FeedRow = Partial<ExportRow & { xid: string }> & { horizon: string; readAt: string; viewLsn: string };

export async function feedPage(db: Queryable, position: FeedPosition, statuses: ExportStatus[], limit: number): Promise<FeedPage> {
  const { rows } = await db.query<FeedRow>({
    name: position.inclusive ? 'trust-feed-from' : 'trust-feed-after',
    text: position.inclusive ? from : after,
    values: [position.xid, position.id, statuses, limit],
  });
  const first = rows[0]!;
  const entries = rows
    .filter((r) => r.id != null)
    .map((r) => ({
      id: r.id!,
      platformId: r.platformId!,
      serviceId: r.serviceId ?? null,
      status: r.status!,
      reason: r.reason!,
      category: r.category!,
      createdAt: r.createdAt!,
      updatedAt: r.updatedAt!,
      expiresAt: r.expiresAt ?? null,
      xid: r.xid!,
    }));
  return { rows: entries, horizon: first.horizon, readAt: first.readAt, viewLsn: first.viewLsn };
}

/**
 * Records that every change below `horizon` was committed before now (the page was read before this
 * runs), and the position of the view it was read from; returns the mark's time, which the partner
 * gets as syncedThrough. On the primary: a replica would refuse the write.
 */
export async function insertFeedMark(db: Queryable, page: Pick<FeedPage, 'readAt' | 'horizon' | 'viewLsn'>): Promise<string> {
  const { rows } = await db.query<{ after: string }>(
    'INSERT INTO trust_feed_marks (before, after, horizon, view_lsn) VALUES ($1, clock_timestamp(), $2::xid8, $3::pg_lsn) RETURNING after',
    [page.readAt, page.horizon, page.viewLsn],
  );
  return rows[0]!.after;
}

/** Where a resume starts, and the position of the view that made its mark (null: none asked). */
export interface ResumePoint {
  horizon: string;
  viewLsn: string | null;
}

/**
 * Where `since` resumes. A syncedThrough this feed gave names its own mark: its horizon, exactly.
 * Any other time takes the highest horizon of a mark recorded well before it (a mark's page read
 * precedes its record by less than the statement timeout), so a late commit is served again,
 * never skipped; without such a mark, the feed starts at its beginning.
 */
export async function resumePoint(db: Queryable, since: string): Promise<ResumePoint> {
  const { rows } = await db.query<{ horizon: string; viewLsn: string | null }>(
    `WITH m AS (SELECT horizon, view_lsn FROM trust_feed_marks WHERE after = $1::timestamptz ORDER BY horizon LIMIT 1),
          o AS (SELECT horizon, view_lsn FROM trust_feed_marks WHERE after < $1::timestamptz - interval '2 minutes'
                ORDER BY horizon DESC LIMIT 1)
     SELECT coalesce((SELECT horizon FROM m), (SELECT horizon FROM o), '0'::xid8)::text AS horizon,
            (CASE WHEN EXISTS (SELECT FROM m) THEN (SELECT view_lsn FROM m) ELSE (SELECT view_lsn FROM o) END)::text AS "viewLsn"`,
    [since],
  );
  return rows[0]!;
}

/**
 * Keeps every mark of the last day (a partner resuming from its own syncedThrough finds it) and,
 * before that, the newest of each hour: an older `since` then resumes up to an hour early (rows
 * served again, none missed).
 */
export async function pruneFeedMarks(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM trust_feed_marks m WHERE m.after < now() - interval '1 day'
       AND EXISTS (SELECT 1 FROM trust_feed_marks n WHERE date_trunc('hour', n.after) = date_trunc('hour', m.after) AND n.after > m.after)`,
  );
}
