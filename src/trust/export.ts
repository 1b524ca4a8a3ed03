// The partner export (docs/trust-network.md): a change feed of the pool in transaction order, served only below
// the oldest running transaction, so following nextCursor to null and resuming with
// since = syncedThrough sees every change. Each page carries an RS256 proof over the RFC 8785
// digest of its rows, bound to the partner key (aud), to the page's cursors, and to the resume
// point (the `since` it read from, as understood here, and the `syncedThrough` it answers): a relay
// that moved either would make a mirror skip rows while every proof verified.
import type { TrustExportPage } from '../http/schema-types.ts';
import type { Checked } from '../http/schemas.ts';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Core } from '../core.ts';
import { badRequest } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { feedPage, insertFeedMark, resumeHorizon } from './export.repo.ts';
import type { ExportRow, ExportStatus, FeedPosition } from './export.repo.ts';
import type { PartnerKey, PartnerTier } from './partner-key.repo.ts';
import { exportProofType, trustSigner } from './signing.ts';

export const pageCaps: Record<PartnerTier, number> = { basic: 500, premium: 1000 };
export const exportStatuses: ExportStatus[] = ['active', 'overturned', 'expired'];
const firstId = '00000000-0000-0000-0000-000000000000';

export type ExportQuery = Checked<'query-trust-export.json'>;

export type ExportPage = TrustExportPage;

export const encodeCursor = (xid: string, id: string) => Buffer.from(`${xid}.${id}`).toString('base64url');

function decodeCursor(cursor: string): FeedPosition {
  const [xid, id, ...rest] = Buffer.from(cursor, 'base64url').toString('latin1').split('.');
  if (rest.length > 0 || !xid || !/^[0-9]{1,20}$/.test(xid) || BigInt(xid) >= 1n << 64n || !id || !isUuid(id)) {
    throw badRequest('cursor is not a nextCursor of this feed');
  }
  return { xid, id: id.toLowerCase(), inclusive: false };
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
  // The since a page read from: only a first page (no cursor) reads from one.
  const since = query.cursor === undefined && query.since !== undefined ? parseSince(query.since) : null;
  if (query.cursor !== undefined) position = decodeCursor(query.cursor);
  else if (since !== null) position = { xid: await resumeHorizon(deps.db, since), id: firstId, inclusive: true };
  else position = { xid: '0', id: firstId, inclusive: true };

  const page = await feedPage(deps.db, position, statuses, limit);
  const rows = page.rows.map(({ xid: _xid, ...row }) => row);
  const last = page.rows.at(-1);
  const nextCursor = last && page.rows.length === limit ? encodeCursor(last.xid, last.id) : null;
  // The read is complete below the horizon: record where a later `since` resumes.
  const syncedThrough = nextCursor === null ? await insertFeedMark(deps.db, page.readAt, page.horizon) : null;
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
