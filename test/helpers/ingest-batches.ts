// Random event batches for the ingestion property tests, and what a server's batches left in the
// stores, to compare two servers that took different paths.
import fc from 'fast-check';
import type { Queryable } from '../../src/store/db.ts';
import { t0 } from './env.ts';
import { player } from './seed.ts';

/**
 * An event of 4 players: presence, kills in one of two milliseconds, shots, statuses and deaths;
 * its id one of `repeatedIds` half the time (a retried event is a duplicate); with `aliases`, a
 * DayZ-ID-like id too, which sends its batch down the transactional path.
 */
export function ingestEvent(repeatedIds: string[], { aliases }: { aliases: boolean }) {
  const who = fc.constantFrom(1, 2, 3, 4);
  const eventId = fc.oneof(fc.constantFrom(...repeatedIds), fc.uuid());
  const at = fc.integer({ min: -240, max: 0 }).map((s) => t0 - 60_000 + s * 1000);
  const events: fc.Arbitrary<Record<string, unknown>>[] = [
    fc.record({ id: eventId, type: fc.constantFrom('player.connect', 'player.heartbeat', 'player.disconnect'), ts: at, n: who }).map(({ n, ...e }) => ({ ...e, ...player(n) })),
    fc.record({ id: eventId, type: fc.constant('kill'), ts: fc.constantFrom(t0 - 90_000, t0 - 80_000), k: who, v: who, isHeadshot: fc.boolean() })
      .map(({ k, v, ...e }) => ({ ...e, killer: player(k), victim: player(v), weapon: 'AKM', distance: 120.5 })),
    fc.record({ id: eventId, type: fc.constant('shots'), ts: at, n: who, fired: fc.integer({ min: 1, max: 20 }) }).map(({ n, ...e }) => ({ ...e, platformId: player(n).platformId, hits: 1 })),
    fc.record({ id: eventId, type: fc.constant('server.status'), ts: at, online: fc.boolean(), players: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }), map: fc.option(fc.constantFrom('chernarusplus', 'enoch'), { nil: undefined }) }),
    fc.record({ id: eventId, type: fc.constant('death'), ts: at, n: who }).map(({ n, ...e }) => ({ ...e, ...player(n), cause: 'infected' })),
  ];
  if (aliases) events.push(fc.record({ id: eventId, type: fc.constant('player.connect'), ts: at }).map((e) => ({ ...e, platformId: 'aGVsbG8td29ybGQtZGF5ei1pZC1mb3ItdGVzdHMxMjM=', name: 'alias' })));
  return fc.oneof(...events);
}

/** What a server's batches left: its players' totals, kills, status, samples and claimed ids. */
export async function storedStateOf(db: Queryable, serverId: string) {
  const q = async (sql: string) => (await db.query(sql, [serverId])).rows;
  return {
    players: await q(`SELECT platform_id, name, kills, deaths, headshots, kill_distance_sum, play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at
                      FROM server_players WHERE server_id = $1 ORDER BY platform_id`),
    kills: await q('SELECT ts, killer_platform_id, victim_platform_id, is_headshot FROM kills WHERE server_id = $1 ORDER BY ts'),
    status: await q('SELECT online, map, players, fps, status_at, metrics_at, last_seen_at, derived_version FROM servers WHERE id = $1'),
    samples: await q('SELECT at, online, players FROM server_metrics WHERE server_id = $1 ORDER BY at'),
    claimed: await q('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1'),
  };
}
