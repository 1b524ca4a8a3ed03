// SQL of the store webhook: the events processed once each, and the purchase lines with what they
// granted (or a refund that came first).
import type { Queryable } from '../store/db.ts';
import type { StoreSource } from './events.ts';

/** Records the event id; false when it was recorded before (a repeat). Blocks on a concurrent delivery of the same id until it ends. */
export async function claimStoreEvent(db: Queryable, source: StoreSource, eventId: string, type: string, atIso: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO store_events (source, event_id, type, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [source, eventId, type, atIso],
  );
  return (rowCount ?? 0) > 0;
}

export interface PurchaseRecord {
  id: number;
  accountId: string;
  platformId: string;
  sku: string;
  purchaseRef: string | null;
  /** Days of queue granted; null = permanent. */
  days: number | null;
  entryId: string | null;
  entryCreated: boolean | null;
  previousExpiresAt: string | null;
  refundedAt: string | null;
}

const columns = `id, account_id AS "accountId", platform_id AS "platformId", sku, purchase_ref AS "purchaseRef", days,
  entry_id AS "entryId", entry_created AS "entryCreated", previous_expires_at AS "previousExpiresAt", refunded_at AS "refundedAt"`;

export async function lockPurchase(
  db: Queryable,
  source: StoreSource,
  purchaseRef: string,
  sku: string,
  platformId: string,
): Promise<PurchaseRecord | undefined> {
  const { rows } = await db.query<PurchaseRecord>(
    `SELECT ${columns} FROM store_purchases WHERE source = $1 AND purchase_ref = $2 AND sku = $3 AND platform_id = $4 FOR UPDATE`,
    [source, purchaseRef, sku, platformId],
  );
  return rows[0];
}

/** The player's newest purchase of the sku not refunded yet (an own-format refund naming no purchase). */
export async function lockNewestUnrefunded(
  db: Queryable,
  source: StoreSource,
  accountId: string,
  platformId: string,
  sku: string,
): Promise<PurchaseRecord | undefined> {
  const { rows } = await db.query<PurchaseRecord>(
    `SELECT ${columns} FROM store_purchases WHERE source = $1 AND account_id = $2 AND platform_id = $3 AND sku = $4
       AND refunded_at IS NULL AND purchase_ref IS NOT NULL ORDER BY id DESC LIMIT 1 FOR UPDATE`,
    [source, accountId, platformId, sku],
  );
  return rows[0];
}

/** Takes one refund that named no purchase and matched none, waiting for the player's next purchase of the sku. */
export async function takeWaitingRefund(
  db: Queryable,
  source: StoreSource,
  accountId: string,
  platformId: string,
  sku: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM store_purchases WHERE id = (
       SELECT id FROM store_purchases WHERE source = $1 AND account_id = $2 AND platform_id = $3 AND sku = $4 AND purchase_ref IS NULL
       ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
    [source, accountId, platformId, sku],
  );
  return (rowCount ?? 0) > 0;
}

export interface NewPurchase {
  source: StoreSource;
  purchaseRef: string | null;
  sku: string;
  accountId: string;
  platformId: string;
  purchaseEventId?: string;
  days: number | null;
  entryId?: string;
  entryCreated?: boolean;
  previousExpiresAt?: string | null;
  purchasedAt?: string;
  /** A refund recorded before its purchase. */
  refundedAt?: string;
  refundEventId?: string;
}

export async function insertPurchase(db: Queryable, p: NewPurchase): Promise<void> {
  await db.query(
    `INSERT INTO store_purchases (source, purchase_ref, sku, account_id, platform_id, purchase_event_id, days, entry_id, entry_created,
       previous_expires_at, purchased_at, refunded_at, refund_event_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      p.source,
      p.purchaseRef,
      p.sku,
      p.accountId,
      p.platformId,
      p.purchaseEventId ?? null,
      p.days,
      p.entryId ?? null,
      p.entryCreated ?? null,
      p.previousExpiresAt ?? null,
      p.purchasedAt ?? null,
      p.refundedAt ?? null,
      p.refundEventId ?? null,
    ],
  );
}

export async function markRefunded(db: Queryable, purchaseId: number, atIso: string, refundEventId: string): Promise<void> {
  await db.query('UPDATE store_purchases SET refunded_at = $2, refund_event_id = $3 WHERE id = $1', [purchaseId, atIso, refundEventId]);
}
