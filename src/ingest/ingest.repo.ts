// SQL of one ingested batch: the per-server lock, event-id claims, kills, players and server status,
// and the one call that applies a fresh batch whole.
import type { Queryable } from '../store/db.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { serverRecordColumns } from '../servers/server.repo.ts';
import type { IngestEvent } from './events.ts';
import type { PlayerTotals, TotalsTuple } from '../stats/totals.ts';
import { totalsOfTuple } from '../stats/totals.ts';
import { pgArray } from '../store/pg-array.ts';
import { isoOfMicros, isoOfMs } from '../store/iso-time.ts';
import type { Column } from '../store/pg-array.ts';
import { battleyeGuidOf, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import type { StoredPlayer, StoredPlayers } from './stored-players.ts';

type KillEvent = Extract<IngestEvent, { type: 'kill' }>;
type StatusEvent = Extract<IngestEvent, { type: 'server.status' }>;

/** Serialises writers of one server (ingestion, rebuild) until the transaction ends. */
export async function lockServer(db: Queryable, serverId: string): Promise<void> {
  await db.query({ name: 'lock-server', text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [serverId] });
}

/** An event's claim: its id and its ts as sent (what a retry sends again). */
export interface EventClaim {
  id: string;
  sentMs: number;
}

/**
 * Claims events (event_claims, by the time each says it happened), received at the service
 * clock's time (the retention is measured by that clock); returns the ids not seen before for
 * this server with this ts.
 */
export async function claimEvents(db: Queryable, serverId: string, claims: EventClaim[], receivedAtMs: number): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>({
    name: 'claim-events',
    text: `INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
           SELECT e.sent_at, $1, e.id, $4::timestamptz FROM unnest($2::timestamptz[], $3::uuid[]) AS e(sent_at, id)
           ON CONFLICT DO NOTHING RETURNING event_id AS id`,
    values: [serverId, pgArray(claims.map((c) => isoOfMs(c.sentMs))), pgArray(claims.map((c) => c.id)), isoOfMs(receivedAtMs)],
  });
  return new Set(rows.map((r) => r.id));
}

/** Kills as the columns of the kills table, each at its microsecond timestamp. */
export const killColumns = (kills: KillEvent[], micros: number[]): Column[] => [
  micros.map(isoOfMicros),
  kills.map((k) => k.killer.platformId), kills.map((k) => k.killer.name),
  kills.map((k) => k.victim.platformId), kills.map((k) => k.victim.name),
  kills.map((k) => k.weapon), kills.map((k) => k.distance), kills.map((k) => k.isHeadshot), kills.map((k) => k.hitZone),
];

/** Inserts the kills whose timestamps are free; returns the microsecond timestamps it stored. */
async function insertFreeKills(db: Queryable, serverId: string, kills: KillEvent[], micros: number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ us: number }>({
    name: 'insert-kills',
    text: `INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
           SELECT $1, * FROM unnest($2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::bool[], $10::text[])
           ON CONFLICT (server_id, ts) DO NOTHING
           RETURNING (extract(epoch FROM ts) * 1000000)::int8 AS us`,
    values: [serverId, ...killColumns(kills, micros)],
  });
  return new Set(rows.map((r) => r.us));
}

/** Gives each kill of a batch its own microsecond: the first free one from the one asked. */
export function killPlacer(): (us: number) => number {
  const used = new Set<number>();
  return (us) => {
    while (used.has(us)) us += 1;
    used.add(us);
    return us;
  };
}

/**
 * For each slot a kill failed to take: the newest stored kill in that slot's millisecond, and in
 * the second that starts at the slot (both in microseconds, null when there is none). Two index
 * probes per slot, whatever the number of kills stored.
 */
async function occupiedAround(db: Queryable, serverId: string, slots: number[]): Promise<Map<number, { inMs: number | null; inSecond: number | null }>> {
  const { rows } = await db.query<{ us: number; inMs: number | null; inSecond: number | null }>({
    name: 'kills-occupied-around',
    text: `SELECT c.us, (SELECT (extract(epoch FROM max(ts)) * 1000000)::int8 FROM kills
                           WHERE server_id = $1 AND ts >= c.ms AND ts < c.ms + interval '1 millisecond') AS "inMs",
                          (SELECT (extract(epoch FROM max(ts)) * 1000000)::int8 FROM kills
                           WHERE server_id = $1 AND ts >= c.at AND ts < c.at + interval '1 second') AS "inSecond"
           FROM unnest($2::int8[], $3::timestamptz[], $4::timestamptz[]) AS c(us, at, ms)`,
    values: [serverId, slots, slots.map(isoOfMicros), slots.map((us) => isoOfMicros(us - (us % 1000)))],
  });
  return new Map(rows.map((r) => [r.us, { inMs: r.inMs, inSecond: r.inSecond }]));
}

/**
 * Stores kills with a timestamp unique for the server at microsecond precision. A kill that
 * collides is placed right after the newest kill of its millisecond; when that millisecond is full
 * (a thousand kills at one ms), after the newest kill of the following second. So a batch costs
 * the same however many kills share its timestamps already; a further round is needed only when
 * another batch of the server takes the same slots at the same moment.
 */
export async function insertKills(db: Queryable, serverId: string, kills: KillEvent[]): Promise<void> {
  const place = killPlacer();
  let pending = kills.map((kill) => ({ kill, us: place(kill.tsMs * 1000) }));
  while (pending.length > 0) {
    const stored = await insertFreeKills(db, serverId, pending.map((p) => p.kill), pending.map((p) => p.us));
    pending = pending.filter((p) => !stored.has(p.us));
    if (pending.length === 0) break;
    const around = await occupiedAround(db, serverId, [...new Set(pending.map((p) => p.us))]);
    for (const p of pending) {
      const { inMs, inSecond } = around.get(p.us)!;
      const msEnd = p.us - (p.us % 1000) + 999;
      const after = inMs !== null && inMs < msEnd ? inMs : (inSecond ?? p.us);
      p.us = place(Math.max(after, p.us) + 1);
    }
  }
}

export type SeenPlayers = Map<string, { name: string; firstMs: number; lastMs: number }>;

/** Players as the columns of the players table, in platform-id order (so two writers never deadlock). */
export const playerColumns = (seen: SeenPlayers): Column[] => {
  const ids = [...seen.keys()].sort();
  const steam = ids.map((id) => isSteam64(id));
  return [
    ids, ids.map((id) => seen.get(id)!.name), ids.map((id) => isoOfMs(seen.get(id)!.firstMs)), ids.map((id) => isoOfMs(seen.get(id)!.lastMs)),
    ids.map((id, i) => (steam[i] ? dayzIdOf(id) : null)), ids.map((id, i) => (steam[i] ? battleyeGuidOf(id) : null)),
  ];
};

/** A player's row is left alone while it says as much: same name, seen within 10 minutes of these times. */
const slackMs = 10 * 60_000;
const coveredBy = (stored: StoredPlayer | undefined, s: StoredPlayer) =>
  stored !== undefined && stored.name === s.name && stored.firstMs <= s.firstMs && stored.lastMs >= s.lastMs - slackMs;

/** The players whose rows may not say as much yet, by what `known` remembers. */
export const playersToStore = (seen: SeenPlayers, known: StoredPlayers): SeenPlayers =>
  new Map([...seen].filter(([id, s]) => !coveredBy(known.get(id), s)));

/**
 * Network-wide identities: name and first/last seen of players, a Steam64 with its DayZ ID and
 * BattlEye GUID beside it. Rows are written in platform-id order, so two writers never deadlock.
 * A player whose row already says as much is left out before the upsert: ON CONFLICT DO UPDATE
 * locks every row it meets, even the ones its WHERE then leaves alone, and a backfill names the
 * same players batch after batch. With `known`, what the rows hold is remembered, so a batch whose
 * players are all covered sends nothing (a row only widens: another process's newer name is the
 * one thing it can miss, for the cache's lifetime).
 */
export async function upsertPlayers(db: Queryable, seen: SeenPlayers, known?: StoredPlayers): Promise<void> {
  const wanted = known ? playersToStore(seen, known) : seen;
  if (wanted.size === 0) return;
  const stale = `excluded.name IS DISTINCT FROM p.name OR excluded.first_seen_at < p.first_seen_at
             OR excluded.last_seen_at > p.last_seen_at + interval '10 minutes'`;
  const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
  const { rows } = await db.query<{ id: string } & StoredPlayer>({
    name: 'upsert-players',
    text: `WITH s AS (
             SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[])
               AS s(platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
           ), up AS (
             INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
             SELECT s.* FROM s
             WHERE NOT EXISTS (SELECT 1 FROM players q WHERE q.platform_id = s.platform_id AND q.name = s.name
               AND q.first_seen_at <= s.first_seen_at AND q.last_seen_at >= s.last_seen_at - interval '10 minutes')
             ON CONFLICT (platform_id) DO UPDATE SET
               name = CASE WHEN excluded.last_seen_at >= p.last_seen_at THEN excluded.name ELSE p.name END,
               first_seen_at = least(p.first_seen_at, excluded.first_seen_at),
               last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at)
             WHERE ${stale}
             RETURNING platform_id, name, first_seen_at, last_seen_at
           )
           SELECT platform_id AS id, name, ${ms('first_seen_at')} AS "firstMs", ${ms('last_seen_at')} AS "lastMs" FROM up
           UNION ALL
           SELECT p.platform_id, p.name, ${ms('p.first_seen_at')}, ${ms('p.last_seen_at')}
           FROM s JOIN players p ON p.platform_id = s.platform_id
           WHERE $7::bool AND NOT EXISTS (SELECT 1 FROM up WHERE up.platform_id = s.platform_id)`,
    values: [...playerColumns(wanted), known !== undefined],
  });
  for (const { id, ...stored } of rows) known?.set(id, stored);
}

/**
 * Moves lastSeenAt to the batch's newest event and applies the newest status sample, unless a
 * newer one is already stored; `bumpVersion` (once per batch) counts the batch in the server's
 * derived-state version. Returns the updated record.
 */
export async function updateServerStatus(db: Queryable, serverId: string, newestMs: number, status: StatusEvent | undefined, bumpVersion: boolean): Promise<ServerRecord> {
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
             status_at = CASE WHEN ${fresh} THEN $3::timestamptz ELSE status_at END,
             derived_version = derived_version + CASE WHEN $11::bool THEN 1 ELSE 0 END
           WHERE id = $1
           RETURNING ${serverRecordColumns}`,
    values: [
      serverId, at(newestMs), status ? at(status.tsMs) : null, status?.online ?? false,
      status?.map ?? null, status?.gameVersion ?? null, hasMetrics,
      status?.players ?? null, status?.fps ?? null, status?.uptimeSeconds ?? null, bumpVersion,
    ],
  });
  return rows[0]!;
}

/** What the one-call path sends (ingest_apply_batch_claims, src/ingest/sql/apply-batch.sql, takes it in this order). */
export interface OneCallBatch {
  receivedAt: string;
  eventIds: string[];
  /** Each event's ts as sent, the other half of its claim. */
  eventsSentAt: string[];
  /** killColumns, savedColumns, addedColumns and sampleColumns of the batch. */
  kills: Column[];
  expected: { ids: string[]; tags: (string | null)[] };
  save: Column[];
  add: Column[];
  samples: Column[];
  newestAt: string;
  status: Record<string, unknown> | null;
  dayzIds: string[];
  /** playerColumns of the players to store. */
  players: Column[];
}

/**
 * The errors after which the batch needs the transactional path (the call changed nothing): the
 * rows read changed (IB001), an event id was seen before or a kill's timestamp is taken
 * (unique_violation of its plain inserts), PostgreSQL rolled the call back to end a deadlock
 * (40P01: two calls of one server may be under way together, src/ingest/one-call-groups.ts), or
 * a claim reached the default partition while its day's partition was being added (check_violation
 * 23514: the insert had chosen its partition before; src/ingest/event-claims.ts).
 */
export const needsTransaction = new Set(['IB001', '23505', '40P01', '23514']);
const oneCallValues = (serverId: string, b: OneCallBatch) => [
  serverId, b.receivedAt, pgArray(b.eventIds), pgArray(b.eventsSentAt), ...[...b.kills, b.expected.ids, b.expected.tags, ...b.save, ...b.add, ...b.samples].map(pgArray),
  b.newestAt, b.status === null ? null : JSON.stringify(b.status), pgArray(b.dayzIds), ...b.players.map(pgArray),
];

/** What one call applied: `tag` is the xmin of every server_players row it wrote (its transaction's id). */
export interface AppliedBatch {
  /** The totals, as they now are, of the players whose counters it added to. */
  added: Map<string, PlayerTotals>;
  orphans: string[];
  server: ServerRecord;
  tag: string;
}

/** The call's out_added: a row per player, its platform id then its totals (timestamps as epoch ms). */
export const addedTotals = (json: string) => new Map((JSON.parse(json) as [string, ...TotalsTuple][]).map(([id, ...totals]) => [id, totalsOfTuple(totals)] as const));

/**
 * Applies a batch in one call; undefined when it needs the transactional path: a present
 * player's row changed since it was read, an event id was seen before, or a kill's timestamp is taken.
 */
export async function applyBatchInOneCall(db: Queryable, serverId: string, batch: OneCallBatch, known: StoredPlayers): Promise<AppliedBatch | undefined> {
  const values = oneCallValues(serverId, batch);
  try {
    const { rows } = await db.query<ServerRecord & { added: string; orphans: string[]; storedPlayers: string; tag: string }>({
      name: 'ingest-apply-batch',
      text: `SELECT f.out_added AS added, f.out_orphans AS orphans, f.out_players AS "storedPlayers", pg_current_xact_id()::xid::text AS tag,
             ${serverRecordColumns} FROM ingest_apply_batch_claims(${values.map((_, i) => `$${i + 1}`).join(', ')}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
      values,
    });
    const { added, orphans, storedPlayers, tag, ...server } = rows[0]!;
    known.setAll(storedPlayers);
    return { added: addedTotals(added), orphans, server, tag };
  } catch (err) {
    if (needsTransaction.has((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}
