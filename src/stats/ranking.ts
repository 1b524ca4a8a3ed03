// How leaderboards are ordered and rendered. Each server keeps one sorted set per sort field,
// read in ascending order: the score is the negated sort value, and the member encodes the
// tie-breakers so that equal scores order by kills desc, deaths asc, then platformId asc.
import type { PlayerTotals } from './totals.ts';

export const leaderboardSorts = ['points', 'kd', 'kills'] as const;
export type LeaderboardSort = (typeof leaderboardSorts)[number];

const width = 10;
const maxCount = 10 ** width - 1;
const pad = (n: number) => String(n).padStart(width, '0');

export const round2 = (n: number) => Math.round(n * 100) / 100;
export const kdOf = (kills: number, deaths: number) => round2(kills / Math.max(deaths, 1));

/** Ranked players have at least one kill or death on the server. */
export const isRanked = (t: Pick<PlayerTotals, 'kills' | 'deaths'>) => t.kills + t.deaths > 0;

export function rankingMember(platformId: string, t: Pick<PlayerTotals, 'kills' | 'deaths'>): string {
  return `${pad(maxCount - Math.min(t.kills, maxCount))}${pad(Math.min(t.deaths, maxCount))}:${platformId}`;
}

/** The member a player holds in the rankings, or null when unranked. */
export const rankingMemberOf = (platformId: string, t: Pick<PlayerTotals, 'kills' | 'deaths'>) => (isRanked(t) ? rankingMember(platformId, t) : null);

/** Platform id back out of a ranking member. */
export const memberPlatformId = (member: string) => member.slice(2 * width + 1);

export function rankingScores(t: Pick<PlayerTotals, 'kills' | 'deaths'>): Record<LeaderboardSort, number> {
  return { points: -2 * t.kills, kd: -Math.round(kdOf(t.kills, t.deaths) * 100), kills: -t.kills };
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
