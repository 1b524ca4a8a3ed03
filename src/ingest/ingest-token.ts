// Checks a server's ingest token against its stored hash (in constant time). The hash is kept
// in-process for AUTH_CACHE_MS (src/ingest/ingest-token-hashes.ts); rotation and revocation drop it
// at once in every process (src/store/invalidation.ts).
import type { Core } from '../core.ts';
import type { CacheDrops } from '../store/invalidation.ts';
import { IngestTokenHashes } from './ingest-token-hashes.ts';
import { sameHash, secretHash } from '../accounts/secrets.ts';
import { ingestTokenPrefix } from '../servers/server.ts';
import { isUuid } from '../http/uuid.ts';

/** serverId -> the hash of its ingest token; a rotation or revocation drops it ('server'). */
export function ingestTokenCaches(core: Pick<Core, 'clock' | 'config'>, drops: CacheDrops) {
  const ingestTokens = new IngestTokenHashes(core.clock, core.config.authCacheMs);
  drops.on('server', (ids) => ids.forEach((id) => ingestTokens.drop(id)));
  return { ingestTokens };
}

export type IngestTokenDeps = Pick<Core, 'db'> & { caches: ReturnType<typeof ingestTokenCaches> };

export async function verifyIngestToken(deps: IngestTokenDeps, serverId: string, token: string): Promise<boolean> {
  if (!isUuid(serverId) || !token.startsWith(ingestTokenPrefix) || token.length > 128) return false;
  const stored = deps.caches.ingestTokens.get(serverId) ?? (await deps.caches.ingestTokens.load(deps.db, serverId));
  return sameHash(secretHash(token), stored);
}
