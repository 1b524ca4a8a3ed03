// Checks a server's ingest token against its stored hash (in constant time). The hash is kept
// in-process for AUTH_CACHE_MS (src/ingest/ingest-token-hashes.ts); rotation and revocation drop it
// at once in every process (src/store/invalidation.ts).
import type { Deps } from '../deps.ts';
import { sameHash, secretHash } from '../accounts/secrets.ts';
import { ingestTokenPrefix } from '../servers/server.ts';
import { isUuid } from '../http/uuid.ts';

export async function verifyIngestToken(deps: Deps, serverId: string, token: string): Promise<boolean> {
  if (!isUuid(serverId) || !token.startsWith(ingestTokenPrefix) || token.length > 128) return false;
  const stored = deps.caches.ingestTokens.get(serverId) ?? (await deps.caches.ingestTokens.load(deps.db, serverId));
  return sameHash(secretHash(token), stored);
}
