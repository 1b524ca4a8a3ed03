// How leaderboards are ordered and rendered: by the sort value, then kills desc, deaths asc, then
// platformId asc. Each server keeps two sorted sets, read in ascending order:
// - the kills ranking, which is also the points ranking (points are twice the kills, so the two
//   orders are one): member the platform id, score -kills * 2^26 + deaths, exact in a double, so
//   a write is one ZADD and equal scores fall back to the platform id;
// - the kd ranking: score the negated kd (x100), and a member that encodes the tie-breakers
//   (kills desc, deaths asc, then the platform id), so a player's member changes with those.
import type { PlayerTotals } from './totals.ts';

export const leaderboardSorts = ['points', 'kd', 'kills'] as const;
export type LeaderboardSort = (typeof leaderboardSorts)[number];

/** The sorted sets behind the sorts: points read the kills ranking. */
export const rankingSets = ['kills', 'kd'] as const;
export type RankingSet = (typeof rankingSets)[number];
export const rankingSetOf = (sort: LeaderboardSort): RankingSet => (sort === 'kd' ? 'kd' : 'kills');

const width = 10;
const maxCount = 10 ** width - 1;
const pad = (n: number) => String(n).padStart(width, '0');
/** Kills and deaths beyond this rank as this many in the kills ranking (its score stays below 2^52). */
const maxScored = 2 ** 26 - 1;

export const round2 = (n: number) => Math.round(n * 100) / 100;
export const kdOf = (kills: number, deaths: number) => round2(kills / Math.max(deaths, 1));

/** Ranked players have at least one kill or death on the server. */
export const isRanked = (t: Pick<PlayerTotals, 'kills' | 'deaths'>) => t.kills + t.deaths > 0;

/** The member a player holds in the kd ranking (its tie-breakers first). */
export function rankingMember(platformId: string, t: Pick<PlayerTotals, 'kills' | 'deaths'>): string {
  return `${pad(maxCount - Math.min(t.kills, maxCount))}${pad(Math.min(t.deaths, maxCount))}:${platformId}`;
}

/** The member a player holds in the kd ranking, or null when unranked. */
export const rankingMemberOf = (platformId: string, t: Pick<PlayerTotals, 'kills' | 'deaths'>) => (isRanked(t) ? rankingMember(platformId, t) : null);

/** Platform id back out of a kd-ranking member. */
export const memberPlatformId = (member: string) => member.slice(2 * width + 1);

/**
 * The player's scores in the two rankings, as text: as a number the kills score could lose digits
 * on its way through Lua, whose numbers print with 14, and text passes through it unconverted.
 */
export function rankingScores(t: Pick<PlayerTotals, 'kills' | 'deaths'>): Record<RankingSet, string> {
  const kills = -Math.min(t.kills, maxScored) * (maxScored + 1) + Math.min(t.deaths, maxScored);
  return { kills: String(kills), kd: String(-Math.round(kdOf(t.kills, t.deaths) * 100)) };
}

export interface LeaderboardEntry {
  rank: number;
  platformId: string;
  name: string;
  kills: number;
  deaths: number;
  headshots: number;
  kd: number;
  points: number;
  meanKillDistance: number | null;
  playMinutes: number;
}

export function leaderboardEntry(rank: number, platformId: string, t: PlayerTotals): LeaderboardEntry {
  return {
    rank,
    platformId,
    name: t.name ?? platformId,
    kills: t.kills,
    deaths: t.deaths,
    headshots: t.headshots,
    kd: kdOf(t.kills, t.deaths),
    points: 2 * t.kills,
    meanKillDistance: t.kills > 0 ? round2(t.killDistanceSum / t.kills) : null,
    playMinutes: Math.floor(t.playSeconds / 60),
  };
}
