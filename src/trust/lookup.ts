// The trust lookup: identifier -> player -> score. The rendered, signed score is cached in Redis
// until the player's pool evidence changes (invalidateTrustScores), an entry ends, or 10 minutes
// pass; play changes it a little and often, so ingestion drops only scores computed a minute ago
// or more (refreshPlayedScores): a playing player's score is recomputed once a minute, not at every
// batch. The common lookup is one Redis read and an RS256 signature is made once per computed
// score. A missing score is computed once at a time per player, across processes: the others wait.
// The identifier is resolved on the read replica when there is one; the score is computed from the
// primary, as it is cached until the next change: a replica behind that change would cache the old
// score under it.
import type { TrustScore } from '../http/schema-types.ts';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../config.ts';
import type { Core } from '../core.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { classifyIdentifier } from '../identities/id-forms.ts';
import { communityEvidence, findTrustPlayer } from './player.repo.ts';
import type { TrustPlayer } from './player.repo.ts';
import { scoreTrust } from './score.ts';
import { nextExpiryMs, signalsOf } from './signals.ts';
import { beginScore, cachedScore, dropScores, scoreLifeMs, storeScore } from './score.store.ts';
import type { CachedScore, ScoreEntry } from './score.store.ts';
import { invalidate } from '../store/invalidation.ts';
import type { CacheDrops, CacheDropsHeld } from '../store/invalidation.ts';
import { LocalScores } from './local-scores.ts';
import { DropGathering } from './drop-gathering.ts';
import { readView } from '../store/read-view.ts';
import { lookupProofAudience, lookupProofType, proofServable, trustSigner } from './signing.ts';

/** A playing player's score is dropped by ingestion once it is this old: play reaches a score within it. */
export const playStalenessMs = 60_000;
/** A lookup waits this long, reading every 20 ms, for another process's computation of the score. */
const awaitOtherMs = 1000;

/** The scores this process read from Redis (AUTH_CACHE_MS); a drop anywhere drops them here ('trustScores'). */
export function trustScoreCaches(config: Pick<Config, 'authCacheMs'>, drops: CacheDrops) {
  const trustScores = new LocalScores(config.authCacheMs);
  drops.on('trustScores', (ids) => trustScores.drop(ids));
  /** Computations under way in this process, by player. */
  const scoresComputing = new Map<string, Promise<CachedScore>>();
  return { trustScores, scoresComputing };
}

/** What looking up and dropping scores use. */
export type TrustDeps = Core & CacheDropsHeld & { caches: ReturnType<typeof trustScoreCaches> };

/** Computes, renders and signs the score of a known player, as of deps.clock. */
export async function computeScore(deps: Core, player: TrustPlayer): Promise<{ score: CachedScore; ttlMs: number }> {
  const nowMs = deps.clock.now();
  const computedAt = new Date(nowMs).toISOString();
  const { entries, play } = await communityEvidence(deps.db, player.platformId);
  const signals = signalsOf(entries, play, nowMs);
  const result = scoreTrust(signals);
  const claims = {
    platformId: player.platformId,
    serviceId: player.serviceId,
    score: result.score,
    band: result.band,
    confidence: result.confidence,
    computedAt,
  };
  const signer = await trustSigner(deps.config);
  const proof = signer ? await signer.sign(claims, lookupProofType, lookupProofAudience, nowMs) : '';
  const body = Buffer.from(
    JSON.stringify({
      platformId: player.platformId,
      serviceId: player.serviceId,
      score: result.score,
      confidence: result.confidence,
      band: result.band,
      signals,
      reasons: result.reasons,
      computedAt,
      ...(proof ? { proof } : {}),
    } satisfies TrustScore),
  );
  const untilExpiry = (nextExpiryMs(entries, nowMs) ?? Infinity) - nowMs;
  return { score: { proof, body }, ttlMs: Math.max(1, Math.min(scoreLifeMs, untilExpiry)) };
}

/** The kind and value of an identifier the lookup takes; 400 when it is none. */
function classified(deps: Core, identifier: string) {
  const id = classifyIdentifier(identifier, deps.clock.now());
  if (!id) {
    throw badRequest(
      'identifier is not a Steam64 (7656119...), STEAM_X:Y:Z, service UUID, DayZ ID, BattlEye GUID, console id or chat user id (discord:<snowflake>)',
    );
  }
  return id;
}

/** The player behind an identifier (read from the replica when there is one): 400 when malformed, 404 when unknown. */
export async function trustPlayerOf(deps: Core, identifier: string): Promise<TrustPlayer> {
  const id = classified(deps, identifier);
  const player = await readView(deps, null, (db) => findTrustPlayer(db, id.kind, id.value));
  if (!player) throw notFound('player');
  return player;
}

/** The rendered score behind an identifier: 400 when malformed, 404 when unknown. */
export async function trustLookup(deps: TrustDeps, identifier: string): Promise<CachedScore> {
  const id = classified(deps, identifier);
  // A Steam64 is its own key: the common lookup never touches PostgreSQL.
  const direct = id.kind === 'steam64' || id.kind === 'legacy';
  if (direct) {
    const hit = await readCache(deps, id.value);
    if (hit) return hit;
  }
  const player = await readView(deps, null, (db) => findTrustPlayer(db, id.kind, id.value));
  if (!player) throw notFound('player');
  if (!direct) {
    const hit = await readCache(deps, player.platformId);
    if (hit) return hit;
  }
  return computeOnce(deps, player);
}

/** The player's score, computed once at a time: concurrent lookups, here or in other processes, wait for it. */
function computeOnce(deps: TrustDeps, player: TrustPlayer): Promise<CachedScore> {
  const here = deps.caches.scoresComputing;
  const running = here.get(player.platformId);
  if (running) return running;
  const work = computeAndStore(deps, player).finally(() => here.delete(player.platformId));
  here.set(player.platformId, work);
  return work;
}

async function computeAndStore(deps: TrustDeps, player: TrustPlayer): Promise<CachedScore> {
  const nowMs = deps.clock.now();
  const claim = await beginScore(deps.redis, player.platformId, nowMs).catch(() => undefined);
  if (claim && !claim.own) {
    const stored = await awaitStored(deps, player.platformId);
    if (stored) return stored;
  }
  const { score, ttlMs } = await computeScore(deps, player);
  if (claim?.own) {
    await storeScore(deps.redis, player.platformId, claim.token, score, nowMs, ttlMs).catch((err: unknown) =>
      deps.log.warn({ err }, 'trust score not cached'),
    );
  }
  return score;
}

/** Another process computes the score: its stored score, read every 20 ms for up to a second. */
async function awaitStored(deps: Core, platformId: string): Promise<CachedScore | undefined> {
  for (const until = Date.now() + awaitOtherMs; Date.now() < until;) {
    await delay(20);
    const entry = await cachedScore(deps.redis, platformId, deps.clock.now()).catch(() => undefined);
    if (entry) return entry.score;
  }
  return undefined;
}

/**
 * The score this process read last (src/trust/local-scores.ts), else Redis's. A cache read that
 * fails (Redis away) is a miss: the score is computed from PostgreSQL.
 */
async function readCache(deps: TrustDeps, platformId: string): Promise<CachedScore | undefined> {
  const local = deps.caches.trustScores;
  const nowMs = deps.clock.now();
  const known = local.get(platformId, nowMs);
  if (known) return known;
  const read = local.beginRead(platformId);
  let entry: ScoreEntry | undefined;
  try {
    entry = await cachedScore(deps.redis, platformId, nowMs);
    // Signed by a key withdrawn since (or cached before signing was turned on or off): computed again.
    if (entry && !proofServable(await trustSigner(deps.config), entry.score.proof)) entry = undefined;
    return entry?.score;
  } catch (err) {
    deps.log.warn({ err }, 'trust score cache unavailable');
    return undefined;
  } finally {
    local.endRead(platformId, read, entry);
  }
}

/**
 * Drops the cached scores of players whose evidence changed (a ban, a pool entry, ingested play),
 * in Redis, then in every process. Call after the change commits; the drops asked in one task go
 * together (src/trust/drop-gathering.ts). On failure the stale score lives at most scoreCacheMs.
 */
export function invalidateTrustScores(deps: TrustDeps, platformIds: Iterable<string>): Promise<void> {
  return gatheringOf(drops, deps, 0).add(platformIds);
}

/**
 * After play was ingested: drops the scores of these players computed a minute ago or more, so
 * play reaches a score within about a minute and a playing player's score stays cached meanwhile.
 */
export function refreshPlayedScores(deps: TrustDeps, platformIds: Iterable<string>): Promise<void> {
  return gatheringOf(plays, deps, playStalenessMs).add(platformIds);
}

/** One per service's scores (tests run several services in one process), and kind of drop. */
const drops = new WeakMap<LocalScores, DropGathering>();
const plays = new WeakMap<LocalScores, DropGathering>();

function gatheringOf(by: WeakMap<LocalScores, DropGathering>, deps: TrustDeps, minAgeMs: number): DropGathering {
  let gathering = by.get(deps.caches.trustScores);
  if (!gathering) by.set(deps.caches.trustScores, (gathering = new DropGathering((ids) => dropEverywhere(deps, ids, minAgeMs))));
  return gathering;
}

async function dropEverywhere(deps: TrustDeps, keys: string[], minAgeMs: number): Promise<void> {
  const held = await dropScores(deps.redis, keys, minAgeMs).catch((err: unknown) => {
    deps.log.error({ err }, 'trust scores not invalidated; they go stale within the cache lifetime');
    return minAgeMs === 0 ? keys : [];
  });
  // A process keeps only scores it read from Redis, and never past their stale time (their Redis
  // expiry): players of whom Redis held no score are held by no process, so they need no broadcast
  // (the common case of an ingested batch). Sent after the drop: no process hears of it before.
  if (held.length > 0) await invalidate(deps, { cache: 'trustScores', keys: held });
}
