// How leaderboards are ordered and rendered: by the sort value, then kills desc, deaths asc, then
// platformId asc. Each server keeps two sorted sets, read in ascending order (Redis orders equal
// scores by their members' bytes):
// - the kills ranking, which is also the points ranking (points are twice the kills, so the two
//   orders are one): member the platform id, score -kills * 2^26 + deaths, exact in a double, so
//   a write is one ZADD and equal scores fall back to the platform id;
// - the kd ranking: for a player with fewer than 32,767 kills and deaths (every player of a real
//   server), member the platform id and a score that holds the kd (x100), kills and deaths exactly
//   (22 + 15 + 15 bits), so a write is one ZADD as in the kills ranking. Beyond, the score keeps
//   its components up to the first that is past its bound and zeroes the rest, and the member,
//   "#" and the tie-breakers before the platform id, orders those players among themselves: no
//   score of one equals a score of the first kind, so the two kinds of member never meet. (Every
//   player's member carried the tie-breakers before: each kill or death of a player removed one
//   member and inserted another, a quarter of Redis's work in a backfill.)
import type { LeaderboardEntry } from '../http/schema-types.ts';
import type { PlayerTotals } from './totals.ts';

export const leaderboardSorts = ['points', 'kd', 'kills'] as const;
export type LeaderboardSort = (typeof leaderboardSorts)[number];

/** The sorted sets behind the sorts: points read the kills ranking. */
export const rankingSets = ['kills', 'kd'] as const;
export type RankingSet = (typeof rankingSets)[number];
export const rankingSetOf = (sort: LeaderboardSort): RankingSet => (sort === 'kd' ? 'kd' : 'kills');

const width = 10;
const maxCount = 10 ** width - 1;
const pad = (n: number, digits = width) => String(n).padStart(digits, '0');
/** Kills and deaths beyond this rank as this many in the kills ranking (its score stays below 2^52). */
const maxScored = 2 ** 26 - 1;

export const round2 = (n: number) => Math.round(n * 100) / 100;
export const kdOf = (kills: number, deaths: number) => round2(kills / Math.max(deaths, 1));

/** Ranked players have at least one kill or death on the server. */
export const isRanked = (t: Pick<PlayerTotals, 'kills' | 'deaths'>) => t.kills + t.deaths > 0;

/** Kills and deaths below this are held exactly by the kd score (15 bits each). */
const kdCountBound = 2 ** 15 - 1;
/** Above every kd x 100 of such a player (at most 3,276,600); 22 bits. */
const kdBound = 2 ** 22 - 1;
/** Digits of kd x 100 in a "#" member: kills are at most 10^10 - 1 there, so kd x 100 below 10^13. */
const kdWidth = 13;
const kd100Of = (t: Pick<PlayerTotals, 'kills' | 'deaths'>) => Math.round(kdOf(t.kills, t.deaths) * 100);
const heldExactly = (t: Pick<PlayerTotals, 'kills' | 'deaths'>) => t.kills < kdCountBound && t.deaths < kdCountBound;

/** The member a player holds in the kd ranking, or null when unranked. */
export function rankingMemberOf(platformId: string, t: Pick<PlayerTotals, 'kills' | 'deaths'>): string | null {
  if (!isRanked(t)) return null;
  if (heldExactly(t)) return platformId;
  const kd100 = Math.min(kd100Of(t), 10 ** kdWidth - 1);
  return `#${pad(10 ** kdWidth - 1 - kd100, kdWidth)}${pad(maxCount - Math.min(t.kills, maxCount))}${pad(Math.min(t.deaths, maxCount))}:${platformId}`;
}

/** Platform id back out of a kd-ranking member. */
export const memberPlatformId = (member: string) => (member.startsWith('#') ? member.slice(kdWidth + 2 * width + 2) : member);

/** The kd score: kd desc, kills desc, deaths asc, each component past its bound ending the score (the rest 0). */
function kdScore(t: Pick<PlayerTotals, 'kills' | 'deaths'>): number {
  const kd100 = kd100Of(t);
  if (kd100 >= kdBound) return 0;
  const kd = (kdBound - kd100) * 2 ** 30;
  if (t.kills >= kdCountBound) return kd;
  return kd + (kdCountBound - t.kills) * 2 ** 15 + Math.min(t.deaths, kdCountBound);
}

/**
 * The player's scores in the two rankings, as text: as a number a score could lose digits on its
 * way through Lua, whose numbers print with 14, and text passes through it unconverted.
 */
export function rankingScores(t: Pick<PlayerTotals, 'kills' | 'deaths'>): Record<RankingSet, string> {
  const kills = -Math.min(t.kills, maxScored) * (maxScored + 1) + Math.min(t.deaths, maxScored);
  return { kills: String(kills), kd: String(kdScore(t)) };
}

export type { LeaderboardEntry };

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
