// Minting, resolving and revoking Data API keys. Resolution is on every Data API request, so a
// resolved key is kept in-process for AUTH_CACHE_MS; a revocation drops it in every process at once
// (src/store/invalidation.ts).
import type { Deps } from '../deps.ts';
import { newSecret, secretHash, secretHashText } from './secrets.ts';
import { findActiveApiKeyByHash, insertApiKey, revokeApiKeyRow } from './api-key.repo.ts';
import type { ApiKeyRecord } from './api-key.repo.ts';
import { invalidate } from '../store/invalidation.ts';

export type ApiKeyTier = 'standard' | 'partner';
export const apiKeyPrefix = 'svc_';

export interface ApiKeyIdentity {
  id: string;
  accountId: string;
  tier: ApiKeyTier;
}

export async function mintApiKey(deps: Deps, accountId: string, name: string, tier: ApiKeyTier): Promise<{ record: ApiKeyRecord; key: string }> {
  const key = newSecret(apiKeyPrefix);
  const record = await insertApiKey(deps.db, accountId, name, tier, secretHash(key));
  return { record, key };
}

export async function resolveApiKey(deps: Deps, raw: string): Promise<ApiKeyIdentity | undefined> {
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
export async function revokeApiKey(deps: Deps, accountId: string, keyId: string): Promise<boolean> {
  const hash = await revokeApiKeyRow(deps.db, accountId, keyId);
  if (hash) await invalidate(deps, { cache: 'apiKey', key: hash.toString('base64') });
  return hash !== undefined;
}
