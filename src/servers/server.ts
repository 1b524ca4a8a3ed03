// Game servers of an account: registration with a one-time ingest token, revocation, token
// rotation, and the status record the Data API serves (cached in Redis, written by ingestion).
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import type { Core } from '../core.ts';
import { newSecret, secretHash } from '../accounts/secrets.ts';
import { serverKeys } from '../store/keys.ts';
import { readThrough } from '../stats/server-reads.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import { invalidate } from '../store/invalidation.ts';
import type { CacheDrops, CacheDropsHeld } from '../store/invalidation.ts';
import { findServerRecord, insertServer, replaceIngestTokenHash, revokeServerRow } from './server.repo.ts';
import type { NewServer, ServerRecord } from './server.repo.ts';

export const ingestTokenPrefix = 'svci_';
/** How long a status record read from PostgreSQL (not written by a batch) stays in Redis. */
const fallbackRecordTtlMs = 10 * 60_000;
/** A status older than this no longer counts as online. */
export const statusFreshMs = 120_000;

/** The status version a revocation leaves behind: above any batch's, so none writes over the revoked record. */
const revokedStatusVersion = Number.MAX_SAFE_INTEGER;

/** serverId -> its owning account ('' when unknown or revoked), kept AUTH_CACHE_MS; a change drops it ('server'). */
export function serverOwnerCaches(config: Pick<Config, 'authCacheMs'>, drops: CacheDrops) {
  const serverOwners = new LRUCache<string, string>({ max: 50_000, ttl: config.authCacheMs });
  drops.on('server', (ids) => ids.forEach((id) => serverOwners.delete(id)));
  return { serverOwners };
}

/** What changing a server and reading its record use. */
export type ServerDeps = Core & CacheDropsHeld & ServerReadDeps;
/** What finding a live server's owner uses. */
export type ServerOwnerDeps = ServerDeps & { caches: ReturnType<typeof serverOwnerCaches> };

export async function registerServer(
  deps: ServerDeps,
  accountId: string,
  server: NewServer,
): Promise<{ server: ServerRecord; ingestToken: string }> {
  const ingestToken = newSecret(ingestTokenPrefix);
  const record = await insertServer(deps.db, accountId, server, secretHash(ingestToken));
  if (server.id) {
    // A fixed id may bring a revoked server back (the demo): its revoked record goes.
    const k = serverKeys(record.id);
    await deps.redis.multi().del(k.status).hdel(k.meta, 'sv').exec();
    await invalidate(deps, { cache: 'server', key: record.id });
  }
  return { server: record, ingestToken };
}

export async function revokeServer(deps: ServerDeps, accountId: string, serverId: string): Promise<boolean> {
  const revoked = await revokeServerRow(deps.db, accountId, serverId);
  if (!revoked) return false;
  // The revoked record replaces the cached one, and no batch still in flight may write over it
  // (its status version is set past any): a reader that read the live row just before could
  // otherwise put it back after a mere delete, and nothing would ever replace it.
  const record = await findServerRecord(deps.db, serverId);
  const k = serverKeys(serverId);
  await deps.redis.multi().set(k.status, JSON.stringify(record)).hset(k.meta, 'sv', revokedStatusVersion).exec();
  await invalidate(deps, { cache: 'server', key: serverId });
  return true;
}

export async function rotateIngestToken(deps: ServerDeps, accountId: string, serverId: string): Promise<string | undefined> {
  const ingestToken = newSecret(ingestTokenPrefix);
  const rotated = await replaceIngestTokenHash(deps.db, accountId, serverId, secretHash(ingestToken));
  if (!rotated) return undefined;
  await dropServerCaches(deps, serverId);
  return ingestToken;
}

/** After a change to a server's row: cached views of it are dropped, in Redis and in every process. */
export async function dropServerCaches(deps: ServerDeps, serverId: string): Promise<void> {
  await deps.redis.del(serverKeys(serverId).status);
  await invalidate(deps, { cache: 'server', key: serverId });
}

/**
 * The status record: from Redis, else PostgreSQL (and then cached). Undefined when unknown. The
 * record may be shared with other requests of this process: read it, never change it.
 */
export async function serverRecord(deps: ServerDeps, serverId: string): Promise<Readonly<ServerRecord> | undefined> {
  const key = serverKeys(serverId).status;
  const cached = await readThrough(deps, serverId, 'status', async () => {
    const text = await deps.redis.get(key);
    return text === null ? null : (JSON.parse(text) as ServerRecord);
  });
  if (cached) return cached;
  const record = await findServerRecord(deps.db, serverId);
  // Only if still missing: a batch may have written a newer record meanwhile (it is versioned). It
  // expires, so a record read just before a change (a rename) cannot outlive it for long.
  if (record) await deps.redis.set(key, JSON.stringify(record), 'PX', fallbackRecordTtlMs, 'NX');
  return record;
}

/** The account owning a live server, or undefined when it is unknown or revoked. */
export async function liveServerOwner(deps: ServerOwnerDeps, serverId: string): Promise<string | undefined> {
  const cached = deps.caches.serverOwners.get(serverId);
  if (cached !== undefined) return cached || undefined;
  const record = await serverRecord(deps, serverId);
  const owner = record && !record.revoked ? record.accountId : '';
  deps.caches.serverOwners.set(serverId, owner);
  return owner || undefined;
}

export function isOnline(record: Pick<ServerRecord, 'statusOnline' | 'statusAt'>, nowMs: number): boolean {
  return record.statusOnline && record.statusAt !== null && nowMs - Date.parse(record.statusAt) <= statusFreshMs;
}
