// Redis side of the trust lookup: the cached, rendered (and signed) score of each player, and the
// version that invalidation bumps so a score computed from older evidence is never stored.
import { appPipeline } from '../store/redis.ts';
import type { AppRedis } from '../store/redis.ts';
import { trustScoreBucket, trustScoreKeys } from '../store/keys.ts';

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

/** Versions live longer than any computation; an expired one only makes a store attempt fail once. */
const versionTtlSeconds = 24 * 3600;

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

export async function scoreVersion(redis: AppRedis, platformId: string): Promise<string> {
  return (await redis.get(trustScoreKeys(platformId).version)) ?? '';
}

export async function storeScore(redis: AppRedis, platformId: string, version: string, score: CachedScore, nowMs: number, ttlMs: number): Promise<boolean> {
  const keys = trustScoreKeys(platformId);
  const ttl = Math.max(1, Math.floor(ttlMs));
  return (await redis.storeTrustScore(keys.score, keys.version, version, encode(score, nowMs + ttl), ttl)) === 1;
}

/**
 * Drops the cached scores of these players and bumps their versions: one script call per bucket of
 * keys (a batch of ingestion names up to a thousand players, and a call a player cost Node 7-10 us
 * and Redis about 25 us).
 */
export async function dropScores(redis: AppRedis, platformIds: Iterable<string>): Promise<void> {
  const buckets = new Map<number, string[]>();
  for (const id of new Set(platformIds)) {
    const keys = trustScoreKeys(id);
    const bucket = trustScoreBucket(id);
    const list = buckets.get(bucket);
    if (list) list.push(keys.score, keys.version);
    else buckets.set(bucket, [keys.score, keys.version]);
  }
  if (buckets.size === 0) return;
  const pipeline = appPipeline(redis);
  for (const keys of buckets.values()) pipeline.dropTrustScores(keys.length, ...keys, versionTtlSeconds);
  const results = await pipeline.exec();
  const failed = results?.find(([err]) => err);
  if (failed) throw failed[0];
}
