// SQL of the outbox: events written in the transaction of the change they report (the caller's
// `tx`), one row an endpoint they go to (webhook_endpoints_for, src/webhooks/sql/outbox.sql);
// the worker's reads of what is due; and the last deliveries of each endpoint.
import type { Queryable } from '../store/db.ts';
import type { EventType, OutboundEvent } from './events.ts';

export interface EventToQueue<E extends OutboundEvent = OutboundEvent> {
  accountId: string;
  /** The server an event is of: only endpoints naming it (or no server) get it. */
  serverId?: string | null;
  type: E['type'];
  occurredAt: string;
  data: E['data'];
}

/** Queues an event for every endpoint of the account subscribed to it; returns how many. */
export async function queueEvent(tx: Queryable, event: EventToQueue): Promise<number> {
  const { rowCount } = await tx.query(
    `INSERT INTO webhook_outbox (endpoint_id, type, occurred_at, data)
     SELECT w.id, $3, $4, $5 FROM webhook_endpoints_for($1, $2, $3) AS w(id)`,
    [event.accountId, event.serverId ?? null, event.type, event.occurredAt, JSON.stringify(event.data)],
  );
  return rowCount ?? 0;
}

/** Queues an event for one endpoint whatever it subscribes to (the test event); returns its id. */
export async function queueForEndpoint(tx: Queryable, endpointId: string, event: OutboundEvent, occurredAt: string): Promise<string> {
  const { rows } = await tx.query<{ eventId: string }>(
    `INSERT INTO webhook_outbox (endpoint_id, type, occurred_at, data) VALUES ($1, $2, $3, $4) RETURNING event_id AS "eventId"`,
    [endpointId, event.type, occurredAt, JSON.stringify(event.data)],
  );
  return rows[0]!.eventId;
}

export interface QueuedEvent {
  id: number;
  eventId: string;
  type: EventType;
  occurredAt: string;
  data: unknown;
}

/** Endpoints with an event waiting whose turn has come (not paused, not waiting for a retry). */
export async function dueEndpointIds(db: Queryable, nowIso: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT w.id FROM webhook_endpoints w
     WHERE w.paused_at IS NULL AND (w.retry_at IS NULL OR w.retry_at <= $1)
       AND EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.endpoint_id = w.id)
     ORDER BY w.retry_at NULLS FIRST, w.id LIMIT $2`,
    [nowIso, limit],
  );
  return rows.map((r) => r.id);
}

/** The first events waiting for an endpoint, in order. */
export async function headEvents(db: Queryable, endpointId: string, limit: number): Promise<QueuedEvent[]> {
  const { rows } = await db.query<QueuedEvent>(
    `SELECT id, event_id AS "eventId", type, occurred_at AS "occurredAt", data FROM webhook_outbox
     WHERE endpoint_id = $1 ORDER BY id LIMIT $2`,
    [endpointId, limit],
  );
  return rows;
}

/** Events waiting for each of the endpoints (an endpoint with none is absent). */
export async function waitingCounts(db: Queryable, endpointIds: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; n: number }>(
    'SELECT endpoint_id AS id, count(*)::int AS n FROM webhook_outbox WHERE endpoint_id = ANY($1::uuid[]) GROUP BY endpoint_id',
    [endpointIds],
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

export interface DeliveryRecord {
  eventIds: string[];
  eventTypes: string[];
  attempt: number;
  outcome: 'delivered' | 'failed' | 'rate-limited';
  statusCode: number | null;
  error: string | null;
  at: string;
  durationMs: number;
}

/** How many deliveries an endpoint keeps. */
export const keptDeliveries = 100;

/** Records a delivery (of an endpoint still there) and drops its records beyond the last 100. */
export async function recordDelivery(tx: Queryable, endpointId: string, d: DeliveryRecord): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (endpoint_id, event_ids, event_types, attempt, outcome, status_code, error, at, duration_ms)
     SELECT id, $2, $3, $4, $5, $6, $7, $8, $9 FROM webhook_endpoints WHERE id = $1`,
    [endpointId, d.eventIds, d.eventTypes, d.attempt, d.outcome, d.statusCode, d.error, d.at, d.durationMs],
  );
  await tx.query(
    `DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND id <= (
       SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
    [endpointId, keptDeliveries],
  );
}

export async function lastDeliveries(db: Queryable, endpointId: string): Promise<(DeliveryRecord & { id: number })[]> {
  const { rows } = await db.query<DeliveryRecord & { id: number }>(
    `SELECT id, event_ids AS "eventIds", event_types AS "eventTypes", attempt, outcome, status_code AS "statusCode", error, at,
       duration_ms AS "durationMs"
     FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`,
    [endpointId, keptDeliveries],
  );
  return rows;
}

/** The events an endpoint acknowledged leave its queue; its head's retry state is cleared. */
export async function markDelivered(tx: Queryable, endpointId: string, outboxIds: number[]): Promise<void> {
  await tx.query('DELETE FROM webhook_outbox WHERE endpoint_id = $1 AND id = ANY($2::int8[])', [endpointId, outboxIds]);
  await tx.query('UPDATE webhook_endpoints SET retry_at = NULL, failing_since = NULL, failed_attempts = 0 WHERE id = $1', [endpointId]);
}

/** The head failed: tried again at `retryAt`; failing since the first failure in a row. */
export async function markFailed(tx: Queryable, endpointId: string, nowIso: string, retryAt: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints SET retry_at = $3, failing_since = coalesce(failing_since, $2), failed_attempts = failed_attempts + 1
     WHERE id = $1`,
    [endpointId, nowIso, retryAt],
  );
}

/** The receiver asked to wait (429): tried again at `retryAt`, and nothing counts as failed. */
export async function markWaiting(tx: Queryable, endpointId: string, retryAt: string): Promise<void> {
  await tx.query('UPDATE webhook_endpoints SET retry_at = $2 WHERE id = $1', [endpointId, retryAt]);
}

/** The worker gives up on an endpoint: paused with the reason shown; its waiting events stay for a resume. */
export async function pauseEndpoint(tx: Queryable, endpointId: string, nowIso: string, reason: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints SET paused_at = $2, paused_reason = $3, paused_by = 'failures', retry_at = NULL, failing_since = NULL, failed_attempts = 0,
       updated_at = $2 WHERE id = $1`,
    [endpointId, nowIso, reason],
  );
}

/** Kills and deaths of players on servers (the K/D a Discord kill message shows), by "serverId platformId". */
export async function playerRecords(
  db: Queryable,
  pairs: { serverId: string; platformId: string }[],
): Promise<Map<string, { kills: number; deaths: number }>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await db.query<{ serverId: string; platformId: string; kills: number; deaths: number }>(
    `SELECT p.server_id AS "serverId", p.platform_id AS "platformId", p.kills, p.deaths
     FROM unnest($1::uuid[], $2::text[]) AS q(server_id, platform_id)
     JOIN server_players p ON p.server_id = q.server_id AND p.platform_id = q.platform_id`,
    [pairs.map((p) => p.serverId), pairs.map((p) => p.platformId)],
  );
  return new Map(rows.map((r) => [`${r.serverId} ${r.platformId}`, { kills: r.kills, deaths: r.deaths }]));
}
