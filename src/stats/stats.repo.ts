// SQL for per-server player totals (server_players), the truth behind leaderboards and online windows.
import type { Queryable } from '../store/db.ts';
import type { Column } from '../store/pg-array.ts';
import type { PlayerTotals } from './totals.ts';
import { isoOfMs } from '../store/iso-time.ts';

export interface TotalsRow {
  platformId: string;
  name: string | null;
  kills: number;
  deaths: number;
  headshots: number;
  killDistanceSum: number;
  playSeconds: number;
  shotsFired: number;
  shotsHit: number;
  onlineAt: string | null;
  presenceAt: string | null;
  nameAt: string | null;
}

const columns = `platform_id AS "platformId", name, kills, deaths, headshots, kill_distance_sum AS "killDistanceSum",
  play_seconds AS "playSeconds", shots_fired AS "shotsFired", shots_hit AS "shotsHit", online_at AS "onlineAt",
  presence_at AS "presenceAt", name_at AS "nameAt"`;

const msOf = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const isoOf = (ms: number | null) => (ms === null ? null : isoOfMs(ms));

export const toTotals = (r: TotalsRow): PlayerTotals => ({
  name: r.name,
  kills: r.kills,
  deaths: r.deaths,
  headshots: r.headshots,
  killDistanceSum: r.killDistanceSum,
  playSeconds: r.playSeconds,
  shotsFired: r.shotsFired,
  shotsHit: r.shotsHit,
  onlineAtMs: msOf(r.onlineAt),
  presenceAtMs: msOf(r.presenceAt),
  nameAtMs: msOf(r.nameAt),
});

export async function loadTotals(db: Queryable, serverId: string, platformIds: string[]): Promise<Map<string, PlayerTotals>> {
  if (platformIds.length === 0) return new Map();
  const { rows } = await db.query<TotalsRow>({
    name: 'totals-by-ids',
    // A join on the unnested ids probes the primary key once per id, also while the table's
    // statistics are stale (= ANY then tends to scan the whole server's rows).
    text: `SELECT ${columns} FROM unnest($2::text[]) AS wanted(id)
           JOIN server_players ON server_id = $1 AND platform_id = wanted.id`,
    values: [serverId, platformIds],
  });
  return new Map(rows.map((r) => [r.platformId, toTotals(r)]));
}

/** Every player of a server, in platform-id order, a page at a time (for rebuilding Redis). */
export async function totalsPage(
  db: Queryable,
  serverId: string,
  afterPlatformId: string,
  limit: number,
): Promise<[string, PlayerTotals][]> {
  const { rows } = await db.query<TotalsRow>(
    `SELECT ${columns} FROM server_players WHERE server_id = $1 AND platform_id > $2 ORDER BY platform_id LIMIT $3`,
    [serverId, afterPlatformId, limit],
  );
  return rows.map((r) => [r.platformId, toTotals(r)]);
}

// The default sort's order (UTF-16 code units) is the < of strings, without a comparator call per step.
const byPlatformId = (totals: Map<string, PlayerTotals>) => [...totals.keys()].sort().map((id) => [id, totals.get(id)!] as const);

/** Whole totals as the columns saveTotals takes, in platform-id order, so two writers never deadlock. */
export function savedColumns(totals: Map<string, PlayerTotals>): Column[] {
  const entries = byPlatformId(totals);
  const col = <T>(pick: (t: PlayerTotals) => T) => entries.map(([, t]) => pick(t));
  return [
    entries.map(([id]) => id),
    col((t) => t.name),
    col((t) => t.kills),
    col((t) => t.deaths),
    col((t) => t.headshots),
    col((t) => t.killDistanceSum),
    col((t) => t.playSeconds),
    col((t) => t.shotsFired),
    col((t) => t.shotsHit),
    col((t) => isoOf(t.onlineAtMs)),
    col((t) => isoOf(t.presenceAtMs)),
    col((t) => isoOf(t.nameAtMs)),
  ];
}

export async function saveTotals(db: Queryable, serverId: string, totals: Map<string, PlayerTotals>): Promise<void> {
  if (totals.size === 0) return;
  await db.query({
    name: 'totals-save',
    text: `INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum,
             play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at)
           SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::float8[], $8::float8[],
             $9::bigint[], $10::bigint[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[])
           ON CONFLICT (server_id, platform_id) DO UPDATE SET
             name = coalesce(excluded.name, sp.name), kills = excluded.kills, deaths = excluded.deaths,
             headshots = excluded.headshots, kill_distance_sum = excluded.kill_distance_sum,
             play_seconds = excluded.play_seconds, shots_fired = excluded.shots_fired,
             shots_hit = excluded.shots_hit, online_at = excluded.online_at,
             presence_at = excluded.presence_at, name_at = excluded.name_at`,
    values: [serverId, ...savedColumns(totals)],
  });
}
