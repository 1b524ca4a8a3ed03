// The partner export (docs/trust-network.md): a change feed of the pool in transaction order, served only below
// the oldest running transaction, so following nextCursor to null and resuming with
// since = syncedThrough sees every change. Each page carries an RS256 proof over the RFC 8785
// digest of its rows, bound to the partner key (aud), to the page's cursors, and to the resume
// point (the `since` it read from, as understood here, and the `syncedThrough` it answers): a relay
// that moved either would make a mirror skip rows while every proof verified.
// Pages are read from the read replica when there is one: a cursor (and a mark) carries the WAL
// position of the view its page came from, and a later page is read from a view at least that new
// (src/store/read-view.ts), so a lagging replica never shows an older feed than the page before.
import type { TrustExportPage } from '../http/schema-types.ts';
import type { Checked } from '../http/schemas.ts';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Core } from '../core.ts';
import { badRequest } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { feedPage, insertFeedMark, resumePoint } from './export.repo.ts';
import type { ExportRow, ExportStatus, FeedPosition } from './export.repo.ts';
import { readView } from '../store/read-view.ts';
import type { PartnerKey, PartnerTier } from './partner-key.repo.ts';
import { exportProofType, trustSigner } from './signing.ts';

export const pageCaps: Record<PartnerTier, number> = { basic: 500, premium: 1000 };
export const exportStatuses: ExportStatus[] = ['active', 'overturned', 'expired'];
const firstId = '00000000-0000-0000-0000-000000000000';

export type ExportQuery = Checked<'query-trust-export.json'>;

export type ExportPage = TrustExportPage;

/** "<xid>.<id>.<view lsn>" in base64url: the row a page ended on, and the position of the view it was read from. */
export const encodeCursor = (xid: string, id: string, viewLsn: string) => Buffer.from(`${xid}.${id}.${viewLsn}`).toString('base64url');

const lsnPattern = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** A cursor's position, and the view it needs; a cursor made before cursors carried a view needs none. */
function decodeCursor(cursor: string): FeedPosition & { viewLsn: string | null } {
  const [xid, id, viewLsn, ...rest] = Buffer.from(cursor, 'base64url').toString('latin1').split('.');
  if (
    rest.length > 0 ||
    !xid ||
    !/^[0-9]{1,20}$/.test(xid) ||
    BigInt(xid) >= 1n << 64n ||
    !id ||
    !isUuid(id) ||
    (viewLsn !== undefined && !lsnPattern.test(viewLsn))
  ) {
    throw badRequest('cursor is not a nextCursor of this feed');
  }
  return { xid, id: id.toLowerCase(), inclusive: false, viewLsn: viewLsn ?? null };
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `since` as ISO date-time or epoch milliseconds; a 400 for anything else. An ISO value is passed on
 * as written: a syncedThrough carries microseconds, which a Date would drop.
 */
export function parseSince(since: string): string {
  if (/^[0-9]{1,15}$/.test(since) && Number(since) <= 8.64e15) return new Date(Number(since)).toISOString();
  const ms = isoPattern.test(since) ? Date.parse(since) : NaN;
  if (!Number.isFinite(ms) || (new Date(ms).toISOString().slice(0, 10) !== since.slice(0, 10) && since.endsWith('Z'))) {
    throw badRequest('since must be an ISO 8601 date-time with zone (2026-11-22T12:00:00Z) or epoch milliseconds');
  }
  return since;
}

export const rowsDigest = (rows: ExportRow[]) =>
  createHash('sha256')
    .update(canonicalize(rows) ?? '[]')
    .digest('base64url');

export async function exportPage(deps: Core, partner: PartnerKey, query: ExportQuery): Promise<ExportPage> {
  const statuses = query.status ? ([...new Set(query.status.split(','))] as ExportStatus[]) : exportStatuses;
  const limit = Math.min(query.limit, pageCaps[partner.tier]);
  let position: FeedPosition;
  // The view the page must be read from at least: the one its cursor's or its mark's page came from.
  let viewLsn: string | null = null;
  // The since a page read from: only a first page (no cursor) reads from one.
  const since = query.cursor === undefined && query.since !== undefined ? parseSince(query.since) : null;
  if (query.cursor !== undefined) ({ viewLsn, ...position } = decodeCursor(query.cursor));
  else if (since !== null) {
    // From the primary: the mark the partner's last page just recorded may not have reached a replica.
    const resume = await resumePoint(deps.db, since);
    position = { xid: resume.horizon, id: firstId, inclusive: true };
    viewLsn = resume.viewLsn;
  } else position = { xid: '0', id: firstId, inclusive: true };

  const page = await readView(deps, viewLsn, (db) => feedPage(db, position, statuses, limit));
  const rows = page.rows.map(({ xid: _xid, ...row }) => row);
  const last = page.rows.at(-1);
  const nextCursor = last && page.rows.length === limit ? encodeCursor(last.xid, last.id, page.viewLsn) : null;
  // The read is complete below the horizon: record where a later `since` resumes.
  const syncedThrough = nextCursor === null ? await insertFeedMark(deps.db, page) : null;
  const body: ExportPage = { rows, count: rows.length, nextCursor, syncedThrough };
  const signer = await trustSigner(deps.config);
  if (signer) {
    const claims = {
      digest: rowsDigest(rows),
      count: rows.length,
      cursor: query.cursor ?? null,
      nextCursor,
      since,
      syncedThrough,
      statuses,
    };
    body.proof = await signer.sign(claims, exportProofType, partner.id, deps.clock.now());
  }
  return body;
}
