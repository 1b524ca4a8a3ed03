// Redis side of the trust lookup: the cached, rendered (and signed) score of each player, and the
// computations under way, which invalidation cancels so a score computed from older evidence is never stored.
import { randomBytes } from 'node:crypto';
import type { AppRedis } from '../store/redis.ts';
import { trustScoreKeys } from '../store/keys.ts';

export interface CachedScore {
  proof: string;
  /** The rendered TrustScore JSON, as bytes: answered as read, with no text encoding per request. */
  body: Buffer;
}

/** A cached score with the service-clock time it goes stale (its next entry expiry). */
export interface ScoreEntry {
  score: CachedScore;
  staleAtMs: number;
}

/**
 * Stored as "<staleAtMs>\n<proof>\n<body>": besides its Redis TTL, an entry carries the service-clock
 * time it goes stale (an entry's expiry), which a reader compares with its own clock.
 */
const encode = (score: CachedScore, staleAtMs: number) => Buffer.concat([Buffer.from(`${staleAtMs}\n${score.proof}\n`), score.body]);
const newline = 10;

/**
 * A computation registers in its bucket's `computing` hash before it reads the evidence; a drop
 * removes the player from that hash, so a score computed from older evidence is not stored. An
 * entry left by a process that died mid-computation is removed by the player's next drop or store;
 * the hash itself goes a day after its last computation began.
 */
const computingTtlMs = 24 * 3600_000;
let computations = 0;
const processTag = randomBytes(6).toString('base64url');

export async function cachedScore(redis: AppRedis, platformId: string, nowMs: number): Promise<ScoreEntry | undefined> {
  const value = await redis.getBuffer(trustScoreKeys(platformId).score);
  if (value === null) return undefined;
  const first = value.indexOf(newline);
  const second = value.indexOf(newline, first + 1);
  if (first < 0 || second < 0) return undefined;
  const staleAtMs = Number(value.toString('latin1', 0, first));
  if (!(staleAtMs > nowMs)) return undefined;
  return { score: { proof: value.toString('latin1', first + 1, second), body: value.subarray(second + 1) }, staleAtMs };
}

/** Registers a computation of the player's score; its token is what storeScore needs. */
export async function beginScore(redis: AppRedis, platformId: string): Promise<string> {
  const { computing } = trustScoreKeys(platformId);
  const token = `${processTag}:${++computations}`;
  await redis.multi().hset(computing, platformId, token).pexpire(computing, computingTtlMs).exec();
  return token;
}

/** Stores the score unless the player was dropped since its computation began (beginScore). */
export async function storeScore(redis: AppRedis, platformId: string, token: string, score: CachedScore, nowMs: number, ttlMs: number): Promise<boolean> {
  const keys = trustScoreKeys(platformId);
  const ttl = Math.max(1, Math.floor(ttlMs));
  return (await redis.storeTrustScore(keys.score, keys.computing, platformId, token, encode(score, nowMs + ttl), ttl)) === 1;
}

/** Players per call: a bucket can hold a whole batch's players, and a call's arguments are kept small. */
const dropChunk = 500;

/**
 * Drops the cached scores of these players: one script call per bucket of keys (8 buckets, so a
 * batch's players take a few calls, not two commands a player), which removes their computations
 * under way and then their scores (src/trust/drop-scores.lua). Returns the players of the calls
 * that found a stored score (a superset of the players that had one).
 */
export async function dropScores(redis: AppRedis, platformIds: Iterable<string>): Promise<string[]> {
  const buckets = new Map<string, { ids: string[]; scores: string[] }>();
  for (const id of new Set(platformIds)) {
    const keys = trustScoreKeys(id);
    const bucket = buckets.get(keys.computing) ?? buckets.set(keys.computing, { ids: [], scores: [] }).get(keys.computing)!;
    bucket.ids.push(id);
    bucket.scores.push(keys.score);
  }
  // Not a pipeline of their own: the calls leave in the write of whatever else this tick sends
  // (ingestion's derived state), in the order issued.
  const calls: Promise<string[]>[] = [];
  for (const [computing, { ids, scores }] of buckets) {
    for (let i = 0; i < ids.length; i += dropChunk) {
      const chunk = ids.slice(i, i + dropChunk);
      const found = redis.dropTrustScores(1 + chunk.length, computing, ...scores.slice(i, i + dropChunk), ...chunk);
      calls.push(found.then((n) => (Number(n) > 0 ? chunk : [])));
    }
  }
  return (await Promise.all(calls)).flat();
}
