// Redis side of player totals: writes a server's changed state through apply-server-state.lua
// (versioned, see there), and reads leaderboard slices and online players back.
import { randomUUID } from 'node:crypto';
import type { AppRedis } from '../store/redis.ts';
import { serverKeys } from '../store/keys.ts';
import { rankingMemberOf, rankingScores, rankingSetOf } from './ranking.ts';
import type { LeaderboardSort } from './ranking.ts';
import { emptyTotals } from './totals.ts';
import type { PlayerTotals } from './totals.ts';

/**
 * A player's totals as stored: a JSON array of name, kills, deaths, headshots, kill distance sum,
 * play seconds, shots fired and shots hit. An array rather than an object: a batch of a thousand
 * players sends a third fewer bytes to Redis, each escaped once more inside the script's argument.
 */
type StoredTotals = [string | null, number, number, number, number, number, number, number];
/** The object form written before (read until the player's next write or a rebuild replaces it). */
interface EarlierTotals {
  n?: string | null;
  k?: number;
  d?: number;
  h?: number;
  ds?: number;
  ps?: number;
  sf?: number;
  sh?: number;
}

const encode = (t: PlayerTotals): string =>
  JSON.stringify([
    t.name,
    t.kills,
    t.deaths,
    t.headshots,
    t.killDistanceSum,
    t.playSeconds,
    t.shotsFired,
    t.shotsHit,
  ] satisfies StoredTotals);

/** Totals out of a stored value "<version>|<member>|<json>" (the json is the third part). */
export function decodeTotals(value: string): PlayerTotals {
  const json = value.slice(value.indexOf('|', value.indexOf('|') + 1) + 1);
  // Fields set one by one: a spread followed by more fields takes V8's slow path (several us).
  const t = emptyTotals();
  if (json.startsWith('[')) {
    const s = JSON.parse(json) as StoredTotals;
    t.name = s[0];
    t.kills = s[1];
    t.deaths = s[2];
    t.headshots = s[3];
    t.killDistanceSum = s[4];
    t.playSeconds = s[5];
    t.shotsFired = s[6];
    t.shotsHit = s[7];
    return t;
  }
  const s = JSON.parse(json) as EarlierTotals;
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

/** The keys applyServerState names, in its KEYS order. */
export const serverStateKeys = (serverId: string) => {
  const k = serverKeys(serverId);
  return [k.players, k.ranking('kills'), k.ranking('kd'), k.online, k.status, k.pages, k.generation, k.meta, k.applied];
};

/**
 * How a write relates to the server's derived state: `batch` applies one ingested batch's changes
 * (skipped while the state is missing or being rebuilt), `rebuild` writes a page of a rebuild,
 * `rebuilt` ends a rebuild and marks every version up to `version` as applied.
 */
export type WriteMode = 'batch' | 'rebuild' | 'rebuilt';

/**
 * Writes absolute totals (and the status record, if given) tagged with `version`. Online-window
 * entries older than staleBeforeMs are dropped on the way. Returns false when the server's derived
 * state is missing or being rebuilt, so the batch was left to the rebuild.
 */
export async function writeServerState(
  redis: AppRedis,
  serverId: string,
  version: number,
  mode: WriteMode,
  totals: Map<string, PlayerTotals>,
  staleBeforeMs: number,
  statusJson = '',
  rebuildToken = '',
): Promise<boolean> {
  const players: string[] = [];
  for (const [platformId, t] of totals) {
    const scores = rankingScores(t);
    players.push(
      platformId,
      rankingMemberOf(platformId, t) ?? '',
      encode(t),
      scores.kills,
      scores.kd,
      t.onlineAtMs === null ? '' : String(t.onlineAtMs),
    );
  }
  return (
    (await redis.applyServerState(
      ...serverStateKeys(serverId),
      version,
      mode,
      rebuildToken,
      statusJson,
      staleBeforeMs,
      JSON.stringify(players),
    )) !== -1
  );
}

/**
 * Starts a rebuild: every derived key of the server goes (the page generation moves on instead, so
 * a page computed before can never be stored as current), and readers see it as being rebuilt.
 * Returns the rebuild's token: its writes are refused once another rebuild took over.
 */
export async function beginServerRebuild(redis: AppRedis, serverId: string): Promise<string> {
  const token = randomUUID();
  const k = serverKeys(serverId);
  await redis
    .multi()
    .del(...serverStateKeys(serverId).filter((key) => key !== k.generation), ...k.retired)
    .incr(k.generation)
    .hset(k.meta, 'r', token)
    .exec();
  return token;
}

/** The highest batch version up to which the server's Redis state is complete, or null when missing or rebuilding. */
export async function appliedVersion(redis: AppRedis, serverId: string): Promise<number | null> {
  const [w, rebuilding] = await redis.hmget(serverKeys(serverId).meta, 'w', 'r');
  return w === null || rebuilding !== null ? null : Number(w);
}

export interface LeaderboardSlice {
  total: number;
  generation: string;
  /** False while the server's derived state is missing or being rebuilt. */
  present: boolean;
  players: [string, PlayerTotals][];
}

export async function leaderboardSlice(
  redis: AppRedis,
  serverId: string,
  sort: LeaderboardSort,
  offset: number,
  limit: number,
): Promise<LeaderboardSlice> {
  const k = serverKeys(serverId);
  const set = rankingSetOf(sort);
  const reply = (await redis.leaderboardSlice(k.ranking(set), k.players, k.generation, k.meta, offset, limit, set)) as [
    number,
    string,
    string,
    ...string[],
  ];
  const [total, generation, applied, ...flat] = reply;
  const players: [string, PlayerTotals][] = [];
  for (let i = 0; i < flat.length; i += 2) players.push([flat[i]!, decodeTotals(flat[i + 1]!)]);
  return { total, generation, present: applied !== '', players };
}

/** The server's change counter; read it before computing a page to be stored with storePage. */
export const pageGeneration = async (redis: AppRedis, serverId: string) => (await redis.get(serverKeys(serverId).generation)) ?? '0';

/** A rendered page, if one is cached for the server's current state. */
export const cachedPage = (redis: AppRedis, serverId: string, field: string) => redis.hget(serverKeys(serverId).pages, field);

/** Pages a server keeps rendered in Redis at most; further pages are served but not kept. */
export const maxStoredPages = 64;

export async function storePage(
  redis: AppRedis,
  serverId: string,
  generation: string,
  field: string,
  page: string,
  ttlMs: number,
): Promise<void> {
  const k = serverKeys(serverId);
  await redis.storePage(k.pages, k.generation, generation, field, page, ttlMs, maxStoredPages);
}

export interface OnlineList {
  players: { platformId: string; name: string }[];
  /** Last presence (ms) of the longest-idle listed player; null when nobody is online. */
  oldestMs: number | null;
}

/** Players seen since a time, most recent first; undefined while the derived state is missing or being rebuilt. */
export async function onlinePlayers(redis: AppRedis, serverId: string, sinceMs: number): Promise<OnlineList | undefined> {
  const k = serverKeys(serverId);
  const [applied, oldest, ...flat] = (await redis.onlinePlayers(k.online, k.players, k.meta, sinceMs)) as string[];
  if (applied === '') return undefined;
  const players: { platformId: string; name: string }[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const platformId = flat[i]!;
    players.push({ platformId, name: decodeTotals(flat[i + 1]!).name ?? platformId });
  }
  return { players, oldestMs: oldest === '' ? null : Number(oldest) };
}
