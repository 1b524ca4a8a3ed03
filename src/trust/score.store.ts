// Redis side of the trust lookup: the cached, rendered (and signed) score of each player, and the
// computations under way, which invalidation cancels so a score computed from older evidence is never stored.
import { randomBytes } from 'node:crypto';
import type { AppRedis } from '../store/redis.ts';
import { trustBucketKeys, trustScoreBucket, trustScoreKeys } from '../store/keys.ts';

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

/** A computation registered less than this long ago is waited for rather than registered over. */
export const computationHoldMs = 10_000;

/**
 * Registers a computation of the player's score (its token is what storeScore needs), unless one
 * is under way in any process: then `own` is false, and the caller waits for that one's score.
 */
export async function beginScore(redis: AppRedis, platformId: string, nowMs: number): Promise<{ own: boolean; token: string }> {
  const { computing } = trustScoreKeys(platformId);
  const token = `${processTag}:${++computations}:${Math.floor(nowMs)}`;
  const [own, registered] = (await redis.beginTrustScore(computing, platformId, token, nowMs, computationHoldMs, computingTtlMs)) as [
    number,
    string,
  ];
  return { own: own === 1, token: registered };
}

/** The longest a score is cached: what bounds a change whose drop failed (Redis away). */
export const scoreLifeMs = 10 * 60_000;

/** Stores the score unless the player was dropped since its computation began (beginScore). */
export async function storeScore(
  redis: AppRedis,
  platformId: string,
  token: string,
  score: CachedScore,
  nowMs: number,
  ttlMs: number,
): Promise<boolean> {
  const keys = trustScoreKeys(platformId);
  const ttl = Math.max(1, Math.min(scoreLifeMs, Math.floor(ttlMs)));
  return (
    (await redis.storeTrustScore(
      keys.score,
      keys.computing,
      keys.held,
      platformId,
      token,
      encode(score, nowMs + ttl),
      ttl,
      scoreLifeMs,
    )) === 1
  );
}

/** Players per call: a bucket can hold a whole batch's players, and a call's arguments are kept small. */
const dropChunk = 500;

/**
 * Drops the cached scores of these players: every one when their evidence changed (minAgeMs 0), or
 * those computed at least minAgeMs ago (play). One script call per bucket (8 buckets) names those
 * of them holding such a score, and for changed evidence removes their computations under way
 * (src/trust/drop-scores.lua); only those scores are then deleted, with their entries in the held
 * set. Returns those players.
 */
export async function dropScores(redis: AppRedis, platformIds: Iterable<string>, minAgeMs = 0): Promise<string[]> {
  const buckets = new Map<number, string[]>();
  for (const id of new Set(platformIds)) {
    const bucket = trustScoreBucket(id);
    const ids = buckets.get(bucket);
    if (ids) ids.push(id);
    else buckets.set(bucket, [id]);
  }
  // Not a pipeline of their own: the calls leave in the write of whatever else this tick sends
  // (ingestion's derived state), in the order issued.
  const calls: Promise<string[]>[] = [];
  for (const [bucket, ids] of buckets) {
    const { computing, held } = trustBucketKeys(bucket);
    for (let i = 0; i < ids.length; i += dropChunk) {
      calls.push(
        (async () => {
          const holding = (await redis.dropTrustScores(computing, held, minAgeMs, scoreLifeMs, ...ids.slice(i, i + dropChunk))) as string[];
          if (holding.length > 0)
            await redis
              .multi()
              .del(...holding.map((id) => trustScoreKeys(id).score))
              .zrem(held, ...holding)
              .exec();
          return holding;
        })(),
      );
    }
  }
  return (await Promise.all(calls)).flat();
}
