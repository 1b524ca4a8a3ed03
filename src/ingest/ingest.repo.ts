// SQL of one ingested batch: the per-server lock, event-id claims, kills, players and server status.
import type { Queryable } from '../store/db.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { serverRecordColumns } from '../servers/server.repo.ts';
import type { IngestEvent } from './events.ts';

type KillEvent = Extract<IngestEvent, { type: 'kill' }>;
type StatusEvent = Extract<IngestEvent, { type: 'server.status' }>;

/** Serialises writers of one server (ingestion, rebuild) until the transaction ends. */
export async function lockServer(db: Queryable, serverId: string): Promise<void> {
  await db.query({ name: 'lock-server', text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [serverId] });
}

/**
 * Records event ids, received at the service clock's time (the retention is measured by that clock);
 * returns the ones not seen before for this server.
 */
export async function claimEventIds(db: Queryable, serverId: string, eventIds: string[], receivedAtMs: number): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>({
    name: 'claim-event-ids',
    text: `INSERT INTO ingest_events (server_id, event_id, received_at) SELECT $1, unnest($2::uuid[]), $3::timestamptz
           ON CONFLICT DO NOTHING RETURNING event_id AS id`,
    values: [serverId, eventIds, new Date(receivedAtMs).toISOString()],
  });
  return new Set(rows.map((r) => r.id));
}

/** ISO text of a microsecond timestamp, e.g. 2026-11-22T10:00:00.123456Z. */
export const isoMicros = (us: number) => `${new Date(Math.floor(us / 1000)).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, '0')}Z`;

/** Inserts the kills whose timestamps are free; returns the microsecond timestamps it stored. */
async function insertFreeKills(db: Queryable, serverId: string, kills: KillEvent[], micros: number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ us: number }>({
    name: 'insert-kills',
    text: `INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
           SELECT $1, * FROM unnest($2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::bool[], $10::text[])
           ON CONFLICT (server_id, ts) DO NOTHING
           RETURNING (extract(epoch FROM ts) * 1000000)::int8 AS us`,
    values: [
      serverId, micros.map(isoMicros),
      kills.map((k) => k.killer.platformId), kills.map((k) => k.killer.name),
      kills.map((k) => k.victim.platformId), kills.map((k) => k.victim.name),
      kills.map((k) => k.weapon), kills.map((k) => k.distance), kills.map((k) => k.isHeadshot), kills.map((k) => k.hitZone),
    ],
  });
  return new Set(rows.map((r) => r.us));
}

/**
 * Stores kills with a timestamp unique for the server at microsecond precision: a kill that
 * collides with another (in the batch or stored) moves one microsecond later and is tried again.
 */
export async function insertKills(db: Queryable, serverId: string, kills: KillEvent[]): Promise<void> {
  const used = new Set<number>();
  const place = (us: number) => {
    while (used.has(us)) us += 1;
    used.add(us);
    return us;
  };
  let pending = kills.map((kill) => ({ kill, us: place(kill.tsMs * 1000) }));
  while (pending.length > 0) {
    const stored = await insertFreeKills(db, serverId, pending.map((p) => p.kill), pending.map((p) => p.us));
    pending = pending.filter((p) => !stored.has(p.us));
    for (const p of pending) p.us = place(p.us + 1);
  }
}

/** Network-wide identities: name and first/last seen of every named player in the batch. */
export async function upsertPlayers(db: Queryable, seen: Map<string, { name: string; firstMs: number; lastMs: number }>): Promise<void> {
  if (seen.size === 0) return;
  const ids = [...seen.keys()].sort();
  const at = (ms: number) => new Date(ms).toISOString();
  await db.query({
    name: 'upsert-players',
    text: `INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])
           ON CONFLICT (platform_id) DO UPDATE SET
             name = CASE WHEN excluded.last_seen_at >= p.last_seen_at THEN excluded.name ELSE p.name END,
             first_seen_at = least(p.first_seen_at, excluded.first_seen_at),
             last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at)
           -- A player seen again within the minute under the same name needs no new row version.
           WHERE excluded.name IS DISTINCT FROM p.name OR excluded.first_seen_at < p.first_seen_at
             OR excluded.last_seen_at > p.last_seen_at + interval '1 minute'`,
    values: [ids, ids.map((id) => seen.get(id)!.name), ids.map((id) => at(seen.get(id)!.firstMs)), ids.map((id) => at(seen.get(id)!.lastMs))],
  });
}

/**
 * Moves lastSeenAt to the batch's newest event and applies the newest status sample, unless a
 * newer one is already stored. Returns the updated record.
 */
export async function updateServerStatus(db: Queryable, serverId: string, newestMs: number, status: StatusEvent | undefined): Promise<ServerRecord> {
  const at = (ms: number) => new Date(ms).toISOString();
  const hasMetrics = status !== undefined && (status.players !== undefined || status.fps !== undefined || status.uptimeSeconds !== undefined);
  // SET expressions all see the row as it was, so status_at here is the stored one.
  const fresh = '$3::timestamptz IS NOT NULL AND (status_at IS NULL OR status_at <= $3::timestamptz)';
  const metrics = `${fresh} AND $7::bool`;
  const { rows } = await db.query<ServerRecord>({
    name: 'update-server-status',
    text: `UPDATE servers SET
             last_seen_at = greatest(last_seen_at, $2::timestamptz),
             online = CASE WHEN ${fresh} THEN $4::bool ELSE online END,
             map = CASE WHEN ${fresh} AND $5::text IS NOT NULL THEN $5::text ELSE map END,
             game_version = CASE WHEN ${fresh} AND $6::text IS NOT NULL THEN $6::text ELSE game_version END,
             players = CASE WHEN ${metrics} THEN $8::int ELSE players END,
             fps = CASE WHEN ${metrics} THEN $9::float8 ELSE fps END,
             uptime_seconds = CASE WHEN ${metrics} THEN $10::int8 ELSE uptime_seconds END,
             metrics_at = CASE WHEN ${metrics} THEN $3::timestamptz ELSE metrics_at END,
             status_at = CASE WHEN ${fresh} THEN $3::timestamptz ELSE status_at END
           WHERE id = $1
           RETURNING ${serverRecordColumns}`,
    values: [
      serverId, at(newestMs), status ? at(status.tsMs) : null, status?.online ?? false,
      status?.map ?? null, status?.gameVersion ?? null, hasMetrics,
      status?.players ?? null, status?.fps ?? null, status?.uptimeSeconds ?? null,
    ],
  });
  return rows[0]!;
}

export async function deleteEventIdsBefore(db: Queryable, beforeIso: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM ingest_events WHERE received_at < $1::timestamptz', [beforeIso]);
  return rowCount ?? 0;
}
