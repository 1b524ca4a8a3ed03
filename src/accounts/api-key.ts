// Minting, resolving and revoking Data API keys. Resolution is on every Data API request, so a
// resolved key is kept in-process for AUTH_CACHE_MS; a revocation drops it in every process at once
// (src/store/invalidation.ts).
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import type { Core } from '../core.ts';
import { newSecret, secretHash, secretHashText } from './secrets.ts';
import { findActiveApiKeyByHash, insertApiKey, revokeApiKeyRow } from './api-key.repo.ts';
import type { ApiKeyRecord, ApiKeyTier } from './api-key.repo.ts';
import { invalidate } from '../store/invalidation.ts';
import type { CacheDrops, CacheDropsHeld } from '../store/invalidation.ts';

export const apiKeyPrefix = 'svc_';

export interface ApiKeyIdentity {
  id: string;
  accountId: string;
  tier: ApiKeyTier;
}

/** This process's resolved keys by their hash; a revocation drops one in every process ('apiKey'). */
export function apiKeyCaches(config: Pick<Config, 'authCacheMs'>, drops: CacheDrops) {
  const apiKeys = new LRUCache<string, ApiKeyIdentity>({ max: 50_000, ttl: config.authCacheMs });
  drops.on('apiKey', (keys) => keys.forEach((key) => apiKeys.delete(key)));
  return { apiKeys };
}

/** What resolving and revoking keys use. */
export type ApiKeyDeps = Core & CacheDropsHeld & { caches: ReturnType<typeof apiKeyCaches> };

export async function mintApiKey(
  deps: Core,
  accountId: string,
  name: string,
  tier: ApiKeyTier,
): Promise<{ record: ApiKeyRecord; key: string }> {
  const key = newSecret(apiKeyPrefix);
  const record = await insertApiKey(deps.db, accountId, name, tier, secretHash(key));
  return { record, key };
}

export async function resolveApiKey(deps: ApiKeyDeps, raw: string): Promise<ApiKeyIdentity | undefined> {
  if (!raw.startsWith(apiKeyPrefix) || raw.length > 128) return undefined;
  const cacheKey = secretHashText(raw);
  const cached = deps.caches.apiKeys.get(cacheKey);
  if (cached) return cached;
  const record = await findActiveApiKeyByHash(deps.db, Buffer.from(cacheKey, 'base64'));
  if (!record) return undefined;
  const identity = { id: record.id, accountId: record.accountId, tier: record.tier };
  deps.caches.apiKeys.set(cacheKey, identity);
  return identity;
}

/** Revokes a live key of the account, in every process at once; false when there is none (unknown or already revoked). */
export async function revokeApiKey(deps: ApiKeyDeps, accountId: string, keyId: string): Promise<boolean> {
  const hash = await revokeApiKeyRow(deps.db, accountId, keyId);
  if (hash) await invalidate(deps, { cache: 'apiKey', key: hash.toString('base64') });
  return hash !== undefined;
}
