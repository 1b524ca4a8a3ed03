// Redis side of player totals: writes a server's changed state through apply-server-state.lua,
// and reads leaderboard slices and online players back.
import type { AppRedis } from '../store/redis.ts';
import { serverKeys } from '../store/keys.ts';
import { leaderboardSorts, rankingMemberOf, rankingScores } from './ranking.ts';
import type { LeaderboardSort } from './ranking.ts';
import { emptyTotals } from './totals.ts';
import type { PlayerTotals } from './totals.ts';

interface StoredTotals {
  n: string | null;
  k: number;
  d: number;
  h: number;
  ds: number;
  ps: number;
  sf: number;
  sh: number;
}

const encode = (t: PlayerTotals): string =>
  JSON.stringify({ n: t.name, k: t.kills, d: t.deaths, h: t.headshots, ds: t.killDistanceSum, ps: t.playSeconds, sf: t.shotsFired, sh: t.shotsHit } satisfies StoredTotals);

export function decodeTotals(json: string): PlayerTotals {
  const s = JSON.parse(json) as Partial<StoredTotals>;
  // Fields set one by one: a spread followed by more fields takes V8's slow path (several us).
  const t = emptyTotals();
  t.name = s.n ?? null;
  t.kills = s.k ?? 0;
  t.deaths = s.d ?? 0;
  t.headshots = s.h ?? 0;
  t.killDistanceSum = s.ds ?? 0;
  t.playSeconds = s.ps ?? 0;
  t.shotsFired = s.sf ?? 0;
  t.shotsHit = s.sh ?? 0;
  return t;
}

const keysOf = (serverId: string) => {
  const k = serverKeys(serverId);
  return [k.players, ...leaderboardSorts.map((s) => k.leaderboard(s)), k.online, k.status, k.pages, k.generation];
};

/**
 * Writes absolute totals (and the status record, if given). `previous` holds the ranking member
 * each player had before (as stored), so a changed one is taken out of the rankings. Online-window
 * entries older than staleBeforeMs are dropped on the way.
 */
export async function writeServerState(
  redis: AppRedis, serverId: string, totals: Map<string, PlayerTotals>, previous: Map<string, string | null>,
  staleBeforeMs: number, statusJson = '',
): Promise<void> {
  const players: (string | number)[][] = [];
  const online: (string | number)[][] = [];
  const offline: string[] = [];
  for (const [platformId, t] of totals) {
    const member = rankingMemberOf(platformId, t);
    const scores = rankingScores(t);
    players.push([platformId, encode(t), member ?? '', previous.get(platformId) ?? '', scores.points, scores.kd, scores.kills]);
    if (t.onlineAtMs === null) offline.push(platformId);
    else online.push([platformId, t.onlineAtMs]);
  }
  await redis.applyServerState(...keysOf(serverId), JSON.stringify({ players, online, offline, status: statusJson }), staleBeforeMs);
}

/** Removes every derived key of a server (before a rebuild). */
export async function clearServerState(redis: AppRedis, serverId: string): Promise<void> {
  await redis.del(...keysOf(serverId));
}

export interface LeaderboardSlice {
  total: number;
  generation: string;
  players: [string, PlayerTotals][];
}

export async function leaderboardSlice(redis: AppRedis, serverId: string, sort: LeaderboardSort, offset: number, limit: number): Promise<LeaderboardSlice> {
  const k = serverKeys(serverId);
  const reply = (await redis.leaderboardSlice(k.leaderboard(sort), k.players, k.generation, offset, limit)) as [number, string, ...string[]];
  const [total, generation, ...flat] = reply;
  const players: [string, PlayerTotals][] = [];
  for (let i = 0; i < flat.length; i += 2) players.push([flat[i]!, decodeTotals(flat[i + 1]!)]);
  return { total, generation, players };
}

/** The server's change counter; read it before computing a page to be stored with storePage. */
export const pageGeneration = async (redis: AppRedis, serverId: string) => (await redis.get(serverKeys(serverId).generation)) ?? '0';

/** A rendered page, if one is cached for the server's current state. */
export const cachedPage = (redis: AppRedis, serverId: string, field: string) => redis.hget(serverKeys(serverId).pages, field);

export async function storePage(redis: AppRedis, serverId: string, generation: string, field: string, page: string, ttlMs: number): Promise<void> {
  const k = serverKeys(serverId);
  await redis.storePage(k.pages, k.generation, generation, field, page, ttlMs);
}

export async function onlinePlayers(redis: AppRedis, serverId: string, sinceMs: number): Promise<{ platformId: string; name: string }[]> {
  const k = serverKeys(serverId);
  const flat = (await redis.onlinePlayers(k.online, k.players, sinceMs)) as string[];
  const players: { platformId: string; name: string }[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const platformId = flat[i]!;
    players.push({ platformId, name: decodeTotals(flat[i + 1]!).name ?? platformId });
  }
  return players;
}
